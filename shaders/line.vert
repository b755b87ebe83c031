#version 330 core
// Line segments with an optional arrowhead: the data flow between cells. Compiled twice: with
// DASHED for barriers' dashed arrows, without for the rest.

layout(location = 0) in vec2 corner; // (0,0) .. (1,1)
layout(location = 1) in vec4 ends;   // world: from.xy, to.xy
layout(location = 2) in vec4 tint;
layout(location = 3) in vec2 style; // world width, world head length

uniform vec2 u_center;
uniform float u_scale;
uniform vec2 u_viewport;

out vec2 v_along; // pixels along the segment from its start, pixels across from its axis
flat out float v_length;
flat out float v_half_width;
flat out float v_shaft_end;
flat out float v_head_start; // beyond the length when there is no head
flat out vec4 v_tint;
#ifdef DASHED
flat out float v_period;
#endif

vec2 to_pixels(vec2 w) { return (w - u_center) * u_scale + 0.5 * u_viewport; }

void main() {
    vec2 a = to_pixels(ends.xy);
    vec2 b = to_pixels(ends.zw);
    float len = max(length(b - a), 1e-3);
    vec2 dir = (b - a) / len;
    vec2 normal = vec2(-dir.y, dir.x);
    float width = max(style.x * u_scale, 1.2);
    // A head shrinks with the zoom but stays a visible triangle, never longer than the arrow.
    float head = style.y > 0.0 ? min(max(style.y * u_scale, 5.0), 0.6 * len) : 0.0;
    // The quad holds every pixel the arrow touches and few others (on llvmpipe each costs its
    // shader and partly covered 4x4 blocks cost most): half a pixel of room for the shaft's
    // anti-aliased edge along and across, 0.6 beside the head (its slanted sides' distance is
    // 0.91 of the distance across). A trapezoid, from the shaft's width at the tail to what
    // the head's base needs, when that is smaller than a rectangle as wide as the head.
    float tail = 0.5 * width + 0.6;
    float base = max(0.5 * width, 0.45 * head) + 0.6;
    float end = tail + (base - tail) * (len + 1.0) / max(len - head + 0.5, 0.5);
    if (end > 2.0 * base - tail) { // no smaller than the rectangle: the rectangle
        tail = base;
        end = base;
    }
    float along = mix(-0.5, len + 0.5, corner.x);
    float across = mix(-1.0, 1.0, corner.y) * mix(tail, end, corner.x);
    v_along = vec2(along, across);
    v_length = len;
    v_half_width = 0.5 * width;
    v_shaft_end = len - 0.8 * head;
    v_head_start = head > 0.0 ? len - head : len + 2.0;
#ifdef DASHED
    v_period = max(4.0 * width, 10.0);
#endif
    v_tint = tint;
    vec2 p = a + dir * along + normal * across;
    gl_Position = vec4(p.x / u_viewport.x * 2.0 - 1.0, 1.0 - p.y / u_viewport.y * 2.0, 0.0, 1.0);
}
