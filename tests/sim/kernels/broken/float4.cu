// A vector load: pplab's simulator has no float4.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 four = reinterpret_cast<const float4*>(in)[i / 4]; // REFUSED float4 is not supported
    s[threadIdx.x] = (i < n) ? four.x : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
