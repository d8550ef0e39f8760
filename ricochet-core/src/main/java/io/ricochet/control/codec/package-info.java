/**
 * The bytes of the control protocol: {@link io.ricochet.control.codec.ControlCodec} encodes and decodes every
 * message (decoding trusts nothing and throws only {@link io.ricochet.control.codec.ControlDecodeException}),
 * {@link io.ricochet.control.codec.Ipv4} is how an address travels, and
 * {@link io.ricochet.control.codec.ControlPipeline} puts framing, codec and TLS into a Netty pipeline, the same on the
 * GMS and on its clients. Section 2 of {@code docs/design/membership.md} is the specification.
 */
package io.ricochet.control.codec;
