    for (int offset = 1; offset < 32; offset <<= 1)   // WRONG: 1, 2, 4, 8, 16
        val += __shfl_down_sync(0xffffffffu, val, offset);
