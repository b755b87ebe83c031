// scan-fast whose first tile never publishes its inclusive prefix: tile 1's look-back waits for
// it forever (on a GPU too). The run is stopped at the time limit, at the waiting line.
#define WARPS (TILE / 32)   // warps per block

// A tile's descriptor: its status and value in one 64-bit word, so a reader sees both together.
enum { INVALID = 0, AGGREGATE = 1, INCLUSIVE = 2 };

__device__ float warpSum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// Warp 0: the sum of every tile before `tile`.
__device__ float lookBack(const volatile unsigned long long* desc, int tile, int lane)
{
    float carry = 0.0f;
    for (int pred = tile - 1 - lane;; pred -= 32)              // a window of 32
    {
        unsigned status = INCLUSIVE;   // before tile 0: an inclusive 0
        float v = 0.0f;
        if (pred >= 0)
        {
            unsigned long long d = desc[pred];
            while ((d >> 32) == INVALID) d = desc[pred];   // HAZARD timeout
            status = (unsigned)(d >> 32);
            v = __uint_as_float((unsigned)d);
        }
        // The nearest lane that found an inclusive prefix ends the look-back.
        const unsigned found = __ballot_sync(0xffffffffu, status == INCLUSIVE);
        const int stop = found ? __ffs(found) - 1 : 31;
        carry += __shfl_sync(0xffffffffu, warpSum(lane <= stop ? v : 0.0f), 0);
        if (found) return carry;
    }
}

__device__ void publish(unsigned long long* desc, int tile, unsigned status, float v)
{
    *(volatile unsigned long long*)(desc + tile) =
        ((unsigned long long)status << 32) | __float_as_uint(v);
}

__global__ void scanFast(const float* in, float* out, int n,
                         unsigned long long* desc, unsigned* next_tile)
{
    __shared__ float s_warp[WARPS];
    __shared__ float s_carry;
    __shared__ int s_tile;
    // Tiles in the order blocks start, so a look-back never waits on a block not yet running.
    if (threadIdx.x == 0) s_tile = atomicAdd(next_tile, 1u);
    __syncthreads();
    const int tile = s_tile;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    // Each thread loads one float4; lane prefixes by shuffles, warp totals through shared memory.
    const long long base = ((long long)tile * TILE + threadIdx.x) * 4;
    float x[4];
    for (int k = 0; k < 4; ++k) x[k] = base + k < n ? in[base + k] : 0.0f;
    float incl = ((x[0] + x[1]) + x[2]) + x[3];
    for (int offset = 1; offset < 32; offset <<= 1)
    {
        const float up = __shfl_up_sync(0xffffffffu, incl, offset);
        if (lane >= offset) incl += up;
    }
    float before = __shfl_up_sync(0xffffffffu, incl, 1);
    if (lane == 0) before = 0.0f;
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    float warp_prefix = 0.0f, aggregate = 0.0f;
    for (int w = 0; w < WARPS; ++w)
    {
        warp_prefix += w < warp ? s_warp[w] : 0.0f;
        aggregate += s_warp[w];
    }

    // Warp 0: publish the aggregate at once (successors may use it before this tile knows
    // its carry), look back, publish the inclusive prefix.
    if (warp == 0)
    {
        float carry = 0.0f;
        if (tile != 0) // tile 0 publishes nothing: tile 1 waits for it forever
        {
            if (lane == 0) publish(desc, tile, AGGREGATE, aggregate);
            carry = lookBack(desc, tile, lane);
            if (lane == 0) publish(desc, tile, INCLUSIVE, carry + aggregate);
        }
        if (lane == 0) s_carry = carry;
    }
    __syncthreads();
    float p = (s_carry + warp_prefix) + before;
    for (int k = 0; k < 4; ++k)
    {
        if (base + k < n) out[base + k] = p;
        p += x[k];
    }
}
