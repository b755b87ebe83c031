// The barrier at the end of each level instead of its start: nothing orders the load before
// level 0, which reads s[t + stride] before thread t + stride writes it. A missing barrier, a
// race (as racecheck says), not shared memory no thread fills.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f; // HAZARD race
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
