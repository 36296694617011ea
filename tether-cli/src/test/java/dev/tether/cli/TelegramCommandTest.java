package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Option parsing of {@code tether telegram}. */
class TelegramCommandTest {
  private static TelegramCommand parse(String... args) {
    TelegramCommand command = new TelegramCommand();
    new CommandLine(command).parseArgs(args);
    return command;
  }

  @Test
  void groupIdsAreNegative_andParseAsChatIdsNotAsOptions() {
    TelegramCommand c = parse("--token-file", "t", "--allowed-chats", "-1001234567890");
    assertEquals(List.of(-1001234567890L), c.allowedChats);
    c = parse("--token-file", "t", "--allowed-chats", "42,-1001234567890");
    assertEquals(List.of(42L, -1001234567890L), c.allowedChats);
  }

  @Test
  void defaults_publicBotApi_instanceDefault() {
    TelegramCommand c = parse("--token-file", "t", "--allowed-chats", "42");
    assertEquals(URI.create("https://api.telegram.org"), c.apiUrl);
    assertEquals("default", c.bridgeOptions.instance);
    assertEquals(Connections.home().resolve(".tether/telegram/default"), c.bridgeOptions.stateDir("telegram"));
    assertEquals(Duration.ofMinutes(30), c.bridgeOptions.mediaTtl());
  }

  @Test
  void allowedChatsAndTokenFile_areRequired() {
    CommandLine.MissingParameterException e = assertThrows(CommandLine.MissingParameterException.class,
        () -> parse("--token-file", "t"));
    assertTrue(e.getMessage().contains("--allowed-chats"), e.getMessage());
    assertThrows(CommandLine.MissingParameterException.class, () -> parse("--allowed-chats", "1"));
    assertThrows(CommandLine.ParameterException.class, () -> parse("--token-file", "t", "--allowed-chats", "alice"));
  }
}
