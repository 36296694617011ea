package dev.tether.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code tether} command: one executable jar with the subcommands {@code serve},
 * {@code agent}, {@code mcp}, {@code validate}, {@code convert}, the chat bridges
 * {@code telegram}, {@code slack} and {@code whatsapp}, {@code coven} and {@code token}.
 *
 * <p>Command-line parsing is picocli: a single 400 KB jar with no dependencies that gives every
 * subcommand a consistent {@code --help}, typed options and usage errors on stderr, which plain
 * JDK parsing would have to re-implement for five commands. Everything a command reports about
 * its progress or failure goes to stderr; stdout carries only results (a converted request, the
 * MCP protocol).
 *
 * <p>Start-up is part of the interface: a host agent spawns {@code tether mcp} or {@code tether
 * validate} per task. So a command line that names a subcommand builds only that subcommand's
 * model (picocli otherwise reflects over every command's options and loads their types), and the
 * launcher uses the class-data archive the build leaves beside it when the JVM can.
 */
@Command(
    name = "tether",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Sessioned, framed messaging with agents, with images both ways.")
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Held so the level sticks: java.util.logging keeps loggers weakly. */
  private static final Logger JETTY_LOG = Logger.getLogger("org.eclipse.jetty");

  /** The subcommands in the order {@code --help} lists them, each made only when needed. */
  private static final Map<String, Supplier<Object>> COMMANDS = new LinkedHashMap<>();

  static {
    COMMANDS.put("serve", ServeCommand::new);
    COMMANDS.put("agent", AgentCommand::new);
    COMMANDS.put("mcp", McpCommand::new);
    COMMANDS.put("validate", ValidateCommand::new);
    COMMANDS.put("convert", ConvertCommand::new);
    COMMANDS.put("telegram", TelegramCommand::new);
    COMMANDS.put("slack", SlackCommand::new);
    COMMANDS.put("whatsapp", WhatsAppCommand::new);
    COMMANDS.put("coven", CovenCommand::new);
    COMMANDS.put("token", TokenCommand::new);
  }

  public static void main(String[] args) {
    JETTY_LOG.setLevel(Level.WARNING); // Jetty's start-up INFO lines are noise on stderr
    LogOptions.textFormat(); // one escaped line per record, also for the commands without --log-format
    System.exit(run(args));
  }

  /** Runs the command line {@code args} and returns its exit code (used by tests in-process). */
  public static int run(String... args) {
    return commandLine(args).execute(args);
  }

  /**
   * The command line for {@code args}: with only the subcommand {@code args[0]} names when it names
   * one, else with all of them (for {@code help}, {@code --help}, a mistyped name and its suggestions).
   */
  static CommandLine commandLine(String... args) {
    CommandLine cl = new CommandLine(new Main());
    Supplier<Object> named = args.length > 0 ? COMMANDS.get(args[0]) : null;
    if (named != null) {
      cl.addSubcommand(args[0], named.get());
    } else {
      COMMANDS.forEach((name, command) -> cl.addSubcommand(name, command.get()));
      cl.addSubcommand("help", new CommandLine.HelpCommand());
    }
    cl.setOut(new PrintWriter(System.out, true));
    cl.setErr(new PrintWriter(System.err, true));
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
      FAILURES.log(Level.FINE, name + " failed", e);
    }
    return usage ? 2 : 1;
  }

  private static final Logger FAILURES = Logger.getLogger("tether.cli");

  /**
   * A command line picocli cannot parse (an unknown flag, a missing value): the error and a hint
   * to {@code --help}, exit status 2. The usage itself would scroll the error away.
   */
  private static int badArguments(CommandLine.ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    PrintWriter err = command.getErr();
    err.println(command.getCommandSpec().qualifiedName() + ": " + e.getMessage());
    err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
    err.flush();
    return command.getCommandSpec().exitCodeOnInvalidInput();
  }

  @Override
  public void run() {
    List<String> names = List.copyOf(COMMANDS.keySet());
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing a command: "
        + String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1));
  }

  /** The project version, from {@code version.properties} that the build filters. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      return new String[] {"tether " + projectVersion()};
    }

    static String projectVersion() throws IOException {
      Properties p = new Properties();
      try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
        if (in == null) {
          throw new IOException("version.properties is missing from the build");
        }
        p.load(in);
      }
      return p.getProperty("version");
    }
  }
}
