#version 330 core
// Texts copied from the texture they were drawn into once: one quad per text, whole pixels.

layout(location = 0) in vec2 corner; // (0,0) .. (1,1)
layout(location = 1) in vec4 rect;   // pixels: x, y, w, h
layout(location = 2) in vec4 texels; // the cache: x, y, w, h
layout(location = 3) in vec4 tint;

uniform vec2 u_center;
uniform float u_scale;
uniform vec2 u_viewport;

out vec2 v_texel;
flat out vec4 v_tint;

void main() {
    vec2 p = (rect.xy + corner * rect.zw - u_center) * u_scale + 0.5 * u_viewport;
    v_texel = texels.xy + corner * texels.zw;
    v_tint = tint;
    gl_Position = vec4(p.x / u_viewport.x * 2.0 - 1.0, 1.0 - p.y / u_viewport.y * 2.0, 0.0, 1.0);
}
