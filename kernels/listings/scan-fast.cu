//@about Not in the chapter: pplab's production scan, the chapter's multi-block scan done in one
//@about pass (Merrill and Garland's decoupled look-back). Each block scans one tile of TILE x 4
//@about elements, publishes the tile's aggregate at once, then looks back over its predecessors
//@about (32 at a time, one per lane of warp 0), adding aggregates until it meets a published
//@about inclusive prefix; it publishes its own and writes its elements from that carry. The
//@about timed kernel uses tiles of 16384; the window traces tiles of TILE x 4, at most 64.
//@about From 2^24 elements pplab bench times scanRing instead: the same look-back, with a
//@about warp for each job (bulk loads, totals, look-back, scans) around a ring of tiles.
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
    for (int pred = tile - 1 - lane;; pred -= 32)              // a window of 32 // @look-back
    {
        unsigned status = INCLUSIVE;   // before tile 0: an inclusive 0 // @look-back
        float v = 0.0f;                                                   // @look-back
        if (pred >= 0)                                                    // @look-back
        {
            unsigned long long d = desc[pred];                            // @look-back
            while ((d >> 32) == INVALID) d = desc[pred];   // wait for it // @look-back
            status = (unsigned)(d >> 32);                                 // @look-back
            v = __uint_as_float((unsigned)d);                             // @look-back
        }
        // The nearest lane that found an inclusive prefix ends the look-back.
        const unsigned found = __ballot_sync(0xffffffffu, status == INCLUSIVE); // @look-back
        const int stop = found ? __ffs(found) - 1 : 31;                   // @look-back
        carry += __shfl_sync(0xffffffffu, warpSum(lane <= stop ? v : 0.0f), 0); // @look-back
        if (found) return carry;                                          // @look-back
    }
}

__device__ void publish(unsigned long long* desc, int tile, unsigned status, float v)
{
    *(volatile unsigned long long*)(desc + tile) =                        // @tile-publish
        ((unsigned long long)status << 32) | __float_as_uint(v);          // @tile-publish
}

__global__ void scanFast(const float* in, float* out, int n,
                         unsigned long long* desc, unsigned* next_tile)
{
    __shared__ float s_warp[WARPS];
    __shared__ float s_carry;
    __shared__ int s_tile;
    // Tiles in the order blocks start, so a look-back never waits on a block not yet running.
    if (threadIdx.x == 0) s_tile = atomicAdd(next_tile, 1u);              // @tile-publish
    __syncthreads();                                                      // @tile-publish
    const int tile = s_tile;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    // Each thread loads one float4; lane prefixes by shuffles, warp totals through shared memory.
    const long long base = ((long long)tile * TILE + threadIdx.x) * 4;
    float x[4];
    for (int k = 0; k < 4; ++k) x[k] = base + k < n ? in[base + k] : 0.0f; // @tile-publish
    float incl = ((x[0] + x[1]) + x[2]) + x[3];                           // @tile-publish
    for (int offset = 1; offset < 32; offset <<= 1)                       // @tile-publish
    {
        const float up = __shfl_up_sync(0xffffffffu, incl, offset);       // @tile-publish
        if (lane >= offset) incl += up;                                   // @tile-publish
    }
    // Every lane shuffles (the mask names all 32); lane 0 then has nothing before it.
    float before = __shfl_up_sync(0xffffffffu, incl, 1);                 // @tile-publish
    if (lane == 0) before = 0.0f;                                         // @tile-publish
    if (lane == 31) s_warp[warp] = incl;                                  // @tile-publish
    __syncthreads();                                                      // @tile-publish
    float warp_prefix = 0.0f, aggregate = 0.0f;
    for (int w = 0; w < WARPS; ++w)                                       // @tile-publish
    {
        warp_prefix += w < warp ? s_warp[w] : 0.0f;                       // @tile-publish
        aggregate += s_warp[w];                                           // @tile-publish
    }

    // Warp 0: publish the aggregate at once (successors may use it before this tile knows
    // its carry), look back, publish the inclusive prefix.
    if (warp == 0)
    {
        float carry = 0.0f;
        if (tile == 0)
        {
            if (lane == 0) publish(desc, 0, INCLUSIVE, aggregate);        // @tile-publish
        }
        else
        {
            if (lane == 0) publish(desc, tile, AGGREGATE, aggregate);     // @tile-publish
            carry = lookBack(desc, tile, lane);                           // @look-back
            if (lane == 0) publish(desc, tile, INCLUSIVE, carry + aggregate); // @tile-publish
        }
        if (lane == 0) s_carry = carry;                                   // @tile-publish
    }
    __syncthreads();                                                      // @tile-publish
    float p = (s_carry + warp_prefix) + before;                           // @tile-publish
    for (int k = 0; k < 4; ++k)                                           // @tile-publish
    {
        if (base + k < n) out[base + k] = p;                              // @tile-publish
        p += x[k];                                                        // @tile-publish
    }
}
