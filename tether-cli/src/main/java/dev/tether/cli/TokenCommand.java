package dev.tether.cli;

import dev.tether.client.HostAddress;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.client.http.InstanceToken;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code tether token create|list|revoke}: instance tokens of a running host, through its API with
 * the host token (or over its Unix socket). A minted token is printed once, on stdout, or written
 * to a file only its owner can read.
 */
@Command(name = "token", mixinStandardHelpOptions = true,
    description = {"Mint, list and revoke tokens that open one instance.",
        "A VM's agent given such a token (tether agent or tether mcp --token-file) reaches only its own instance."},
    subcommands = {TokenCommand.Create.class, TokenCommand.List.class, TokenCommand.Revoke.class})
final class TokenCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing a subcommand: create, list or revoke");
  }

  @Command(name = "create", mixinStandardHelpOptions = true, description = "Mint a token that opens one instance.")
  static final class Create implements Callable<Integer> {
    @Mixin ClientOptions.Direct host;

    @Option(names = "--instance", required = true, paramLabel = "ID", description = "The instance the token opens.")
    String instance;

    @Option(names = "--out", paramLabel = "FILE",
        description = "Write the token to FILE (created 0600; must not exist) instead of printing it.")
    Path out;

    @Override
    public Integer call() throws Exception {
      HostAddress address = host.address();
      try (HttpTetherClient client = host.connect(address, false)) {
        InstanceToken t = client.mintToken(instance).get(30, TimeUnit.SECONDS);
        if (out == null) {
          System.out.println(t.token());
        } else {
          try (var ch = Files.newByteChannel(out, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
            ch.write(ByteBuffer.wrap((t.token() + "\n").getBytes(StandardCharsets.US_ASCII)));
          }
        }
        System.err.println("tether token: " + t.id() + " opens instance " + t.instance()
            + (out == null ? "" : "; written to " + out) + " (revoke: tether token revoke " + t.id() + ")");
        return 0;
      } catch (ExecutionException e) {
        System.err.println("tether token: " + ClientOptions.describeFailure(address, e));
        return 1;
      }
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List the instance tokens (never their secrets).")
  static final class List implements Callable<Integer> {
    @Mixin ClientOptions.Direct host;

    @Override
    public Integer call() throws Exception {
      HostAddress address = host.address();
      try (HttpTetherClient client = host.connect(address, false)) {
        for (InstanceToken t : client.tokens().get(30, TimeUnit.SECONDS)) {
          System.out.println(t.id() + "\t" + t.instance() + "\t" + t.createdAt());
        }
        return 0;
      } catch (ExecutionException e) {
        System.err.println("tether token: " + ClientOptions.describeFailure(address, e));
        return 1;
      }
    }
  }

  @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a token by its id.")
  static final class Revoke implements Callable<Integer> {
    @Mixin ClientOptions.Direct host;

    @Parameters(index = "0", paramLabel = "ID", description = "The token's id (tok-...), as create and list show it.")
    String id;

    @Override
    public Integer call() throws Exception {
      HostAddress address = host.address();
      try (HttpTetherClient client = host.connect(address, false)) {
        client.revokeToken(id).get(30, TimeUnit.SECONDS);
        System.err.println("tether token: revoked " + id);
        return 0;
      } catch (ExecutionException e) {
        System.err.println("tether token: " + ClientOptions.describeFailure(address, e));
        return 1;
      }
    }
  }
}
