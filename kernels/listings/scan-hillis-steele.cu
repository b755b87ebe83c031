//@about Not in the chapter: pplab's Hillis-Steele scan, for comparison with §8.7's Blelloch. An
//@about inclusive scan in log2(n) steps; every step touches every element, so it does O(n log n)
//@about additions where Blelloch does O(n).
__global__ void scanHillisSteele(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int t = threadIdx.x;
    s[t] = (t < n) ? in[t] : 0.0f;                                    // @load
    for (int offset = 1; offset < blockDim.x; offset <<= 1)           // @hillis-steele
    {
        __syncthreads();                                              // @hillis-steele
        float v = s[t];                                               // @hillis-steele
        if (t >= offset)                                              // @hillis-steele
            v += s[t - offset];                                       // @hillis-steele
        __syncthreads();   // everyone reads before anyone writes     // @hillis-steele
        s[t] = v;                                                     // @hillis-steele
    }
    if (t < n) out[t] = s[t];
}
