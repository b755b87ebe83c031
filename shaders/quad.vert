#version 330 core
// Rounded rectangles: cells, bars, panels, four corners each; a cell may carry its value, a
// text copied from the texture of drawn texts (see run.frag), drawn by the same fragments.
// Everything the fragments need is worked out here, once per corner, and passed flat: on
// llvmpipe each interpolated value costs every fragment, and a cell's quad has hundreds.

layout(location = 0) in vec2 corner; // (0,0) .. (1,1)
layout(location = 1) in vec4 rect;   // world: x, y, w, h
layout(location = 2) in vec4 fill;
layout(location = 3) in vec4 border;
layout(location = 4) in vec2 style; // world: border width, corner radius
layout(location = 5) in vec4 text_rect;   // pixels: where the value lies (w 0: no value)
layout(location = 6) in vec4 text_texels; // the cache: x, y, w, h
layout(location = 7) in vec4 text_tint;

uniform vec2 u_center;   // world point at the middle of the viewport
uniform float u_scale;   // pixels per world unit
uniform vec2 u_viewport; // pixels
#ifdef VALUE
uniform sampler2D u_runs;
#endif

flat out vec2 v_center; // pixels of the framebuffer (rows from the bottom, as gl_FragCoord)
flat out vec2 v_half;
flat out vec4 v_fill;
flat out vec4 v_border;
flat out vec2 v_style;     // pixels
#ifdef VALUE // compiled with VALUE for cells that carry a value (see quad.frag)
flat out vec2 v_to_texel;  // from gl_FragCoord to the value's texel in the cache
flat out vec4 v_text_box;  // the cache's texels of the value: first x, y, last x, y
flat out vec4 v_text_tint; // alpha 0: no value
#endif

void main() {
    // Never thinner than a pixel: a heat strip must not vanish when zoomed out.
    vec2 size = max(rect.zw * u_scale, vec2(1.0));
    vec2 center = (rect.xy + 0.5 * rect.zw - u_center) * u_scale + 0.5 * u_viewport;
    vec2 half_size = 0.5 * size;
    // Half a pixel of room for the anti-aliased edge: a pixel whose centre lies half a pixel
    // or more outside the box covers none of it. Every pixel more is shaded in vain, and on
    // llvmpipe it makes more of the 4x4 blocks partly covered.
    vec2 extent = half_size + vec2(0.5);
    vec2 p = center + (2.0 * corner - 1.0) * extent;
    v_center = vec2(center.x, u_viewport.y - center.y);
    v_half = half_size;
    v_fill = fill;
    v_border = border;
    float bw = style.x > 0.0 ? clamp(style.x * u_scale, 1.0, 0.3 * min(size.x, size.y)) : 0.0;
    v_style = vec2(bw, min(style.y * u_scale, min(half_size.x, half_size.y)));
#ifdef VALUE
    // The texts were drawn y down into the cache's framebuffer, whose rows count from the
    // bottom; the value's pixel (x, y down) is texel (x - left + tx, H - ty - (y - top)).
    float rows = float(textureSize(u_runs, 0).y);
    v_to_texel = vec2(text_texels.x - text_rect.x, rows - text_texels.y - u_viewport.y + text_rect.y);
    vec2 first = vec2(text_texels.x, rows - text_texels.y - text_rect.w);
    bool valued = text_rect.z > 0.0;
    v_text_box = valued ? vec4(first, first + text_rect.zw - vec2(1.0)) : vec4(0.0);
    v_text_tint = valued ? text_tint : vec4(0.0);
#endif
    gl_Position = vec4(p.x / u_viewport.x * 2.0 - 1.0, 1.0 - p.y / u_viewport.y * 2.0, 0.0, 1.0);
}
