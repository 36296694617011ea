package dev.tether.cli;

import dev.tether.client.HostAddress;
import dev.tether.client.http.HttpTetherClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The picocli mixin of every command that reaches a running host as a client: where the host is
 * ({@code --host}) and the file of its bearer token for a TCP host. The token option's name is the
 * one thing that differs, so there are two mixins: {@link Direct} ({@code --token-file}, for
 * {@code agent}, {@code mcp} and {@code token}) and {@link Bridge} ({@code --host-token-file}, for
 * {@code telegram} and {@code coven}, whose own {@code --token-file} is the bot's or the gateway's).
 *
 * <p>{@code --instance} stays with each command: what the instance is for (served, bridged, opened
 * by a token) is what its description says, {@code token create} requires it and {@code mcp} has
 * none. Parsing and the token rules are {@link HostAddress#parse} and {@link Connections#connect}'s;
 * a mixin only holds the flags, so a command's refusals (such as {@code mcp}'s one-line
 * {@code --host} error) stay its own.
 */
abstract class ClientOptions {
  private static final String TOKEN_FILE_DESCRIPTION =
      "Bearer token for a TCP host (default ~/.tether/token when --host is TCP).";

  @Option(names = "--host", paramLabel = "ADDRESS",
      description = "The tether host: a socket path (unix:/path or /path) or http://127.0.0.1:PORT."
          + " Default: the default socket of 'tether serve'.")
  String host;

  /** The token file given, or null for the default one. */
  abstract Path tokenFile();

  /**
   * {@code --host}, or the default socket of {@code tether serve} when it is not given.
   *
   * @throws IllegalArgumentException when {@code --host} is not an address
   */
  final HostAddress address() {
    return host == null ? HostAddress.defaultSocket() : HostAddress.parse(host);
  }

  /** The client of the host at {@code address}, with the token file's token for a TCP host. */
  final HttpTetherClient connect(HostAddress address, boolean blobImages) throws IOException {
    return Connections.connect(address, tokenFile(), blobImages);
  }

  /**
   * Why a request to the host at {@code address} failed, in one line: for a Unix socket that does
   * not exist, that no host listens there and how to reach one, else the failure's own words.
   */
  static String describeFailure(HostAddress address, Throwable e) {
    if (address instanceof HostAddress.Unix unix && !Files.exists(unix.path(), LinkOption.NOFOLLOW_LINKS)) {
      return "no tether host is listening on " + unix + " (start 'tether serve', or pass --host for another one)";
    }
    return CommandFailure.oneLine(CommandFailure.describe(e));
  }

  /** {@code --host} and {@code --token-file}: the commands whose only token is the host's. */
  static final class Direct extends ClientOptions {
    @Option(names = "--token-file", paramLabel = "FILE", description = TOKEN_FILE_DESCRIPTION)
    Path tokenFile;

    @Override
    Path tokenFile() {
      return tokenFile;
    }
  }

  /**
   * {@code --host} and {@code --host-token-file}: the chat bridges, whose own {@code --token-file}
   * is the credential of the service they bridge to.
   */
  static final class Bridge extends ClientOptions {
    @Option(names = "--host-token-file", paramLabel = "FILE", description = TOKEN_FILE_DESCRIPTION)
    Path hostTokenFile;

    @Override
    Path tokenFile() {
      return hostTokenFile;
    }
  }
}
