package io.ricochet.api.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API's listening Unix domain socket: its file at {@link ApiConfig#unixSocket()}, with the configured mode and
 * group from the moment anyone can reach it, and removed on close.
 *
 * <p>Binding creates the socket file with the process's umask, so the file would be open to others until its mode
 * is set. To leave no such window, the socket is bound inside a fresh directory of mode {@code rwx------} next to
 * the final path, given its group and mode there, and only then renamed into place (a rename keeps the socket
 * bound). If that staging path (21 bytes longer) would be too long for a socket address, the socket is bound at
 * its final path instead, and accepts nothing until the mode is set; a client that connects in the moment between
 * the bind and the mode change waits in the backlog and is accepted after it.
 *
 * <p>An existing file at the path is handled first: a socket on which nothing accepts (left by a daemon that
 * died) is deleted; a socket something accepts on, or a file that is not a socket, makes the start fail. That check
 * must come first: Netty's native bind unlinks whatever is at the path before binding.
 */
final class UnixSocketListener implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UnixSocketListener.class);
    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path path;
    private final Channel channel;
    /** The socket file's identity, so close never deletes a file that replaced it. */
    private final Object fileKey;

    private UnixSocketListener(Path path, Channel channel, Object fileKey) {
        this.path = path;
        this.channel = channel;
        this.fileKey = fileKey;
    }

    /**
     * Binds {@code bootstrap} (an epoll domain socket bootstrap) at {@code config.unixSocket()}.
     *
     * @throws ApiListenException naming the path and the reason if the socket cannot be set up
     */
    static UnixSocketListener bind(ServerBootstrap bootstrap, ApiConfig config) throws ApiListenException {
        Path path = config.unixSocket();
        Path parent = path.getParent();
        if (!Files.isDirectory(parent)) {
            throw ApiListenException.unix(path, "directory " + parent + " does not exist", null);
        }
        try {
            removeStale(path);
        } catch (ApiListenException e) {
            throw e;
        } catch (IOException e) {
            throw ApiListenException.unix(path, e.toString(), e);
        }
        Path staging = parent.resolve(String.format(".ricochet-%08x", RANDOM.nextInt()));
        Path staged = staging.resolve("s");
        boolean stage = staged.toString().getBytes(StandardCharsets.UTF_8).length
                <= ApiConfig.MAX_UNIX_SOCKET_PATH_BYTES;
        Path live = stage ? staged : path;
        Channel channel = null;
        boolean stagingCreated = false;
        try {
            if (stage) {
                Files.createDirectory(staging, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
                stagingCreated = true;
            }
            if (!stage) {
                bootstrap.option(ChannelOption.AUTO_READ, false);
            }
            channel = bootstrap.bind(new DomainSocketAddress(live.toString())).sync().channel();
            protect(live, config);
            if (stage) {
                Files.move(staged, path, StandardCopyOption.ATOMIC_MOVE);
                live = path;
            } else {
                channel.config().setAutoRead(true);
            }
            Object key = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            return new UnixSocketListener(path, channel, key);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cleanUp(channel, live);
            throw ApiListenException.unix(path, "interrupted", e);
        } catch (ApiListenException e) {
            cleanUp(channel, live);
            throw e;
        } catch (Exception e) {
            cleanUp(channel, live);
            throw ApiListenException.unix(path, e.toString(), e);
        } finally {
            if (stagingCreated) {
                deleteQuietly(staged);
                deleteQuietly(staging);
            }
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", file, e.toString());
        }
    }

    /** Sets the group (if configured), then the mode, of the socket file at {@code file}. */
    private static void protect(Path file, ApiConfig config) throws IOException {
        Path path = config.unixSocket();
        // Following links: the JDK sets attributes without following them by opening the file, which a socket
        // refuses (ENXIO). The file is the socket just bound, in a directory only this user can enter.
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (view == null) {
            throw ApiListenException.unix(path, "the file system has no POSIX permissions", null);
        }
        if (config.unixSocketGroup() != null) {
            GroupPrincipal group;
            try {
                group = file.getFileSystem().getUserPrincipalLookupService()
                        .lookupPrincipalByGroupName(config.unixSocketGroup());
            } catch (IOException e) {
                throw ApiListenException.unix(path, "no group named '" + config.unixSocketGroup() + "'", e);
            }
            try {
                view.setGroup(group);
            } catch (IOException e) {
                throw ApiListenException.unix(path, "cannot give it to group '" + config.unixSocketGroup() + "': "
                        + e, e);
            }
        }
        view.setPermissions(config.unixSocketPermissions());
    }

    /** Deletes a socket nobody accepts on; refuses anything else at {@code path}. */
    private static void removeStale(Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!isSocket(path)) {
            throw ApiListenException.unix(path, "the path exists and is not a socket; refusing to replace it "
                    + "(move it away, or choose another path)", null);
        }
        boolean accepting;
        try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(path))) {
            accepting = probe.isConnected();
        } catch (ConnectException refused) {
            accepting = false;
        } catch (IOException e) {
            throw ApiListenException.unix(path, "a socket is there already and cannot be probed (" + e + ")", e);
        }
        if (accepting) {
            throw ApiListenException.unix(path, "another process accepts connections on it (another daemon?)",
                    null);
        }
        Files.deleteIfExists(path);
        LOG.info("removed the stale API socket {} (nothing accepted on it)", path);
    }

    private static boolean isSocket(Path path) throws IOException {
        try {
            int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            return (mode & S_IFMT) == S_IFSOCK;
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther();
        }
    }

    private static void cleanUp(Channel channel, Path bound) {
        if (channel != null) {
            channel.close().awaitUninterruptibly();
        }
        try {
            if (channel != null) {
                Files.deleteIfExists(bound);
            }
        } catch (IOException e) {
            LOG.warn("cannot delete the API socket {}: {}", bound, e.toString());
        }
    }

    /** The socket file's path. */
    Path path() {
        return path;
    }

    /** Stops listening and deletes the socket file, unless another file has replaced it meanwhile. */
    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
        try {
            BasicFileAttributes now = Files.readAttributes(path, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (Objects.equals(now.fileKey(), fileKey)) {
                Files.deleteIfExists(path);
            } else {
                LOG.warn("not deleting {}: it is no longer the API's socket", path);
            }
        } catch (NoSuchFileException gone) {
            // already gone (Netty deletes the socket at its bound path)
        } catch (IOException e) {
            LOG.warn("cannot delete the API socket {}: {}", path, e.toString());
        }
    }
}
