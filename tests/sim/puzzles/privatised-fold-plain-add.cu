    __syncthreads();          // all counts complete before folding

    // WRONG: a plain += into g_hist, where blocks add into the same global bins.
    for (int b = threadIdx.x; b < BINS; b += TILE)
        if (s_hist[b] != 0)
            g_hist[b] += s_hist[b];
