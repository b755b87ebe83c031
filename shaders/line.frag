#version 330 core
// Shaft and head by distance, so both stay smooth at any zoom; dashes for barriers (DASHED).

in vec2 v_along;
flat in float v_length;
flat in float v_half_width;
flat in float v_shaft_end;
flat in float v_head_start;
flat in vec4 v_tint;
#ifdef DASHED
flat in float v_period;
#endif

out vec4 color;

void main() {
    float u = v_along.x;
    float v = abs(v_along.y);
    float d = max(v - v_half_width, max(-u, u - v_shaft_end));
    // The head: a triangle with its tip at u = length and its base 0.9 * head wide; 0.91 is
    // the cosine of its sides' angle, from the distance across to the distance to a side.
    // Without a head, v_head_start lies beyond the segment and d_head stays positive.
    float d_head = max((v - 0.45 * (v_length - u)) * 0.91, max(u - v_length, v_head_start - u));
    float alpha = clamp(0.5 - min(d, d_head), 0.0, 1.0);
#ifdef DASHED
    alpha *= step(mod(u, v_period), 0.55 * v_period);
#endif
    color = vec4(v_tint.rgb, v_tint.a * alpha);
    if (color.a <= 0.0)
        discard;
}
