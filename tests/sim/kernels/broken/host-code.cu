// A whole program pasted in, its host code with it.
__global__ void reduceTree(const float* in, float* out, int n)
{
    if (threadIdx.x == 0 && blockIdx.x * blockDim.x < n)
        out[blockIdx.x] = in[blockIdx.x * blockDim.x];
}

int main() // REFUSED main is host code: pplab launches your kernel itself
{
    float* d_in = nullptr;
    cudaMalloc(&d_in, 1024 * sizeof(float));
    return 0;
}
