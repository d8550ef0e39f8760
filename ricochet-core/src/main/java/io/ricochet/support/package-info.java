/**
 * What the command-line tools of every module share: picocli converters that report a parser's message, and the
 * one-line usage errors. The {@code cli} package holds only the {@code ricochet} tool's own commands.
 */
package io.ricochet.support;
