package io.ricochet.bench.load;

import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Adapts a parse function that throws {@link IllegalArgumentException} to a picocli converter, so the parser's
 * message is what the user sees.
 *
 * @param <T> the parsed type
 */
abstract class Parsing<T> implements ITypeConverter<T> {
    private final Function<String, T> parse;

    Parsing(Function<String, T> parse) {
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
