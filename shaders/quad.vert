#version 330 core
// Rounded rectangles: cells, bars, panels, four corners each; a cell may carry its value, a
// text copied from the texture of drawn texts (see run.frag), drawn by the same fragments.

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

out vec2 v_local; // pixels from the rectangle's centre
flat out vec2 v_half;
flat out vec4 v_fill;
flat out vec4 v_border;
flat out vec2 v_style; // pixels
out vec2 v_pixel;      // pixels of the viewport
flat out vec4 v_text_rect;
flat out vec4 v_text_texels;
flat out vec4 v_text_tint;

void main() {
    // Never thinner than a pixel: a heat strip must not vanish when zoomed out.
    vec2 size = max(rect.zw * u_scale, vec2(1.0));
    vec2 center = (rect.xy + 0.5 * rect.zw - u_center) * u_scale + 0.5 * u_viewport;
    vec2 half_size = 0.5 * size;
    vec2 extent = half_size + vec2(1.0); // one pixel of room for the anti-aliased edge
    v_local = (2.0 * corner - 1.0) * extent;
    v_half = half_size;
    v_fill = fill;
    v_border = border;
    float bw = style.x > 0.0 ? clamp(style.x * u_scale, 1.0, 0.3 * min(size.x, size.y)) : 0.0;
    v_style = vec2(bw, min(style.y * u_scale, min(half_size.x, half_size.y)));
    vec2 p = center + v_local;
    v_pixel = p;
    v_text_rect = text_rect;
    v_text_texels = text_texels;
    v_text_tint = text_tint;
    gl_Position = vec4(p.x / u_viewport.x * 2.0 - 1.0, 1.0 - p.y / u_viewport.y * 2.0, 0.0, 1.0);
}
