package io.ricochet.support;

import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Adapts a parse function that throws {@link IllegalArgumentException} on bad input to a picocli converter: the
 * parser's message becomes a {@link TypeConversionException}, which {@link UsageErrorHandler} prints after the flag
 * and the value. Shared by every command of every module (the ricochet tool, the GMS, the FD, the bench).
 *
 * @param <T> the parsed type
 */
public abstract class ParsingConverter<T> implements ITypeConverter<T> {
    private final Function<String, T> parse;

    protected ParsingConverter(Function<String, T> parse) {
        this.parse = parse;
    }

    @Override
    public T convert(String value) {
        try {
            return parse.apply(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
