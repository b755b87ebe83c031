// A struct in shared memory: refused at its declaration, with what to write instead.
struct Pair
{
    float value;
    int index;
};

__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ Pair s[TILE]; // REFUSED one __shared__ array per field
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x].value = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0].value;
}
