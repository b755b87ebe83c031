#version 330 core
// The coverage the glyph shader drew, read texel for pixel: no filtering, no derivatives.

in vec2 v_texel;
flat in vec4 v_tint;

uniform sampler2D u_runs;

out vec4 color;

void main() {
    // The texts were drawn y down into a framebuffer, whose rows count from the bottom.
    vec2 texel = vec2(v_texel.x, float(textureSize(u_runs, 0).y) - v_texel.y);
    float coverage = texelFetch(u_runs, ivec2(texel), 0).r;
    color = vec4(v_tint.rgb, v_tint.a * coverage);
    if (color.a <= 0.0)
        discard;
}
