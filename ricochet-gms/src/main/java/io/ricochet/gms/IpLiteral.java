package io.ricochet.gms;

import com.google.common.net.InetAddresses;
import java.net.Inet4Address;
import java.net.InetAddress;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Picocli converters for IP address literals; nothing is looked up in DNS. */
final class IpLiteral {
    private IpLiteral() {
    }

    static InetAddress parse(String value) {
        try {
            return InetAddresses.forString(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("not an IP address literal (for example 127.0.0.1)");
        }
    }

    /** Any IP address literal, IPv4 or IPv6. */
    static final class Any implements ITypeConverter<InetAddress> {
        @Override
        public InetAddress convert(String value) {
            return parse(value);
        }
    }

    /** An IPv4 address literal. */
    static final class V4 implements ITypeConverter<Inet4Address> {
        @Override
        public Inet4Address convert(String value) {
            if (parse(value) instanceof Inet4Address v4) {
                return v4;
            }
            throw new TypeConversionException("not an IPv4 address");
        }
    }
}
