    if (threadIdx.x == 0)
    {
        float sum = 0.0f;
        for (int i = 1; i < n; ++i) sum += in[i];   // WRONG: in[0] is never added
        out[0] = sum;
    }
