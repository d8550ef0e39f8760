/**
 * What the command-line tools and servers of every module share: picocli converters that report a parser's
 * message, the one-line usage errors, and a rate-limited WARN for what peers can cause at will. The {@code cli}
 * package holds only the {@code ricochet} tool's own commands.
 */
package io.ricochet.support;
