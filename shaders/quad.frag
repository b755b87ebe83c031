#version 330 core
// A rounded box by its signed distance, anti-aliased over one pixel, with an inner border;
// over it the cell's value, as if drawn after it (one fragment instead of two). The colour is
// premultiplied (blended ONE, ONE_MINUS_SRC_ALPHA): the value goes over the cell without a
// division, and a fragment outside the box adds nothing, so none is discarded. Compiled twice:
// with VALUE for cells that carry a value, without for the rest (no texture read: on llvmpipe
// a per-lane gather that every fragment of the cell pays for).

flat in vec2 v_center;
flat in vec2 v_half;
flat in vec4 v_fill;
flat in vec4 v_border;
flat in vec2 v_style;
#ifdef VALUE
flat in vec2 v_to_texel;
flat in vec4 v_text_box;
flat in vec4 v_text_tint;

uniform sampler2D u_runs;
#endif

out vec4 color;

float rounded_box(vec2 p, vec2 half_size, float r) {
    vec2 q = abs(p) - half_size + vec2(r);
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

void main() {
    float d = rounded_box(gl_FragCoord.xy - v_center, v_half, v_style.y);
    float coverage = clamp(0.5 - d, 0.0, 1.0);
    float inside = clamp(0.5 - (d + v_style.x), 0.0, 1.0);
    vec4 c = v_style.x > 0.0 ? mix(v_border, v_fill, inside) : v_fill;
    float alpha = c.a * coverage;
#ifdef VALUE
    // Texel centres: inside the value's box or not; outside, the fetch is clamped and unused.
    vec2 texel = gl_FragCoord.xy + v_to_texel;
    vec2 at = clamp(texel, v_text_box.xy, v_text_box.zw + vec2(0.5));
    float ink = texel == at ? v_text_tint.a * texelFetch(u_runs, ivec2(at), 0).r : 0.0;
    color = vec4(v_text_tint.rgb * ink + c.rgb * (alpha * (1.0 - ink)), ink + alpha * (1.0 - ink));
#else
    color = vec4(c.rgb * alpha, alpha);
#endif
}
