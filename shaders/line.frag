#version 330 core
// Shaft and head by distance, so both stay smooth at any zoom; dashes for barriers.

in vec2 v_along;
flat in float v_length;
flat in float v_width;
flat in float v_head;
flat in float v_dashed;
flat in vec4 v_tint;

out vec4 color;

void main() {
    float u = v_along.x;
    float v = abs(v_along.y);
    float shaft_end = v_length - 0.8 * v_head;
    float d = max(v - 0.5 * v_width, max(-u, u - shaft_end));
    if (v_head > 0.0) {
        // Triangle with its tip at u = length and its base 0.9 * head wide.
        float t = (v_length - u) / v_head;
        float half_w = 0.45 * v_head * t;
        float slant = 0.91; // cos of the side's angle: distance to the slanted side
        float d_head = max((v - half_w) * slant, max(u - v_length, (v_length - v_head) - u));
        d = min(d, d_head);
    }
    float alpha = clamp(0.5 - d, 0.0, 1.0);
    if (v_dashed > 0.5) {
        float period = max(4.0 * v_width, 10.0);
        alpha *= step(mod(u, period), 0.55 * period);
    }
    color = vec4(v_tint.rgb, v_tint.a * alpha);
    if (color.a <= 0.0)
        discard;
}
