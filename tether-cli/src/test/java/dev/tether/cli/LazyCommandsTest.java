package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A command line that names a subcommand builds only that one; every other shape sees them all. */
class LazyCommandsTest {
  private static final List<String> ALL =
      List.of("serve", "agent", "mcp", "validate", "convert", "telegram", "slack", "whatsapp", "coven", "token", "help");

  @Test
  void aNamedSubcommand_isTheOnlyOneBuilt() {
    assertEquals(Set.of("validate"), Main.commandLine("validate", "f.json").getSubcommands().keySet());
    assertEquals(Set.of("mcp"), Main.commandLine("mcp", "--host", "unix:/x").getSubcommands().keySet());
  }

  @Test
  void helpNoArgumentsAndMistypedNames_seeEveryCommandInHelpOrder() {
    for (String[] args : new String[][] {{}, {"--help"}, {"help", "serve"}, {"valdate"}, {"-V"}}) {
      assertEquals(ALL, List.copyOf(Main.commandLine(args).getSubcommands().keySet()), String.join(" ", args));
    }
  }
}
