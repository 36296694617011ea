package dev.tether.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code tether} command: one executable jar with the subcommands {@code serve},
 * {@code agent}, {@code mcp}, {@code validate}, {@code convert} and {@code coven}.
 *
 * <p>Command-line parsing is picocli: a single 400 KB jar with no dependencies that gives every
 * subcommand a consistent {@code --help}, typed options and usage errors on stderr, which plain
 * JDK parsing would have to re-implement for five commands. Everything a command reports about
 * its progress or failure goes to stderr; stdout carries only results (a converted request, the
 * MCP protocol).
 */
@Command(
    name = "tether",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Sessioned, framed messaging with agents, with images both ways.",
    subcommands = {
      ServeCommand.class,
      AgentCommand.class,
      McpCommand.class,
      ValidateCommand.class,
      ConvertCommand.class,
      TelegramCommand.class,
      CovenCommand.class,
      TokenCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Held so the level sticks: java.util.logging keeps loggers weakly. */
  private static final java.util.logging.Logger JETTY_LOG = java.util.logging.Logger.getLogger("org.eclipse.jetty");

  public static void main(String[] args) {
    JETTY_LOG.setLevel(java.util.logging.Level.WARNING); // Jetty's start-up INFO lines are noise on stderr
    LogOptions.textFormat(); // one escaped line per record, also for the commands without --log-format
    System.exit(run(args));
  }

  /** Runs the command line {@code args} and returns its exit code (used by tests in-process). */
  public static int run(String... args) {
    return commandLine().execute(args);
  }

  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(new java.io.PrintWriter(System.out, true));
    cl.setErr(new java.io.PrintWriter(System.err, true));
    cl.setExecutionExceptionHandler(Main::usageError);
    cl.setParameterExceptionHandler(Main::badArguments);
    return cl;
  }

  /**
   * A {@link UsageException} or {@link IllegalArgumentException} from a command is a mistake in
   * its arguments: one line on stderr naming the command, exit status 2. Anything else that escapes
   * a command (a file it cannot read, a host it cannot reach, a bug) is one line too, exit status
   * 1; the stack trace goes to the log at DEBUG ({@code --log-level debug}), never to the user.
   */
  private static int usageError(Exception e, CommandLine command, CommandLine.ParseResult parsed) {
    String name = command.getCommandSpec().qualifiedName();
    boolean usage = e instanceof UsageException || e instanceof IllegalArgumentException;
    command.getErr().println(name + ": " + CommandFailure.oneLine(usage ? String.valueOf(e.getMessage()) : CommandFailure.describe(e)));
    command.getErr().flush();
    if (!usage) {
      FAILURES.log(java.util.logging.Level.FINE, name + " failed", e);
    }
    return usage ? 2 : 1;
  }

  private static final java.util.logging.Logger FAILURES = java.util.logging.Logger.getLogger("tether.cli");

  /**
   * A command line picocli cannot parse (an unknown flag, a missing value): the error and a hint
   * to {@code --help}, exit status 2. The usage itself would scroll the error away.
   */
  private static int badArguments(CommandLine.ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    java.io.PrintWriter err = command.getErr();
    err.println(command.getCommandSpec().qualifiedName() + ": " + e.getMessage());
    err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
    err.flush();
    return command.getCommandSpec().exitCodeOnInvalidInput();
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing a command: serve, agent, mcp, validate, convert, telegram, coven or token");
  }

  /** The project version, from {@code version.properties} that the build filters. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws java.io.IOException {
      return new String[] {"tether " + projectVersion()};
    }

    static String projectVersion() throws java.io.IOException {
      java.util.Properties p = new java.util.Properties();
      try (java.io.InputStream in = Main.class.getResourceAsStream("version.properties")) {
        if (in == null) {
          throw new java.io.IOException("version.properties is missing from the build");
        }
        p.load(in);
      }
      return p.getProperty("version");
    }
  }
}
