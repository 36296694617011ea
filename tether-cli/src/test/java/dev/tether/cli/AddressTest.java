package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class AddressTest {
  @Test
  void socketForms() {
    assertEquals(new Address.Unix(Path.of("/run/t.sock")), Address.parse("unix:/run/t.sock"));
    assertEquals(new Address.Unix(Path.of("/run/t.sock")), Address.parse("/run/t.sock"));
    assertEquals(new Address.Unix(Path.of("./t.sock")), Address.parse("./t.sock"));
  }

  @Test
  void tcpForms() {
    assertEquals(new Address.Tcp("127.0.0.1", 8080), Address.parse("127.0.0.1:8080"));
    assertEquals(new Address.Tcp("127.0.0.1", 8080), Address.parse("http://127.0.0.1:8080"));
    assertEquals(new Address.Tcp("::1", 9), Address.parse("[::1]:9"));
  }

  @Test
  void garbage_isRejectedNamingTheValue() {
    for (String bad : new String[] {"", "localhost", "host:port", "127.0.0.1:99999", "http://nohost"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Address.parse(bad), bad);
      assertTrue(e.getMessage().contains(bad.isEmpty() ? "''" : bad) || e.getMessage().contains("port"), e.getMessage());
    }
  }

  @Test
  void loopbackCheck() {
    assertTrue(new Address.Tcp("127.0.0.1", 1).isLoopback());
    assertTrue(new Address.Tcp("localhost", 1).isLoopback());
    assertFalse(new Address.Tcp("0.0.0.0", 1).isLoopback());
    assertFalse(new Address.Tcp("10.1.2.3", 1).isLoopback());
  }

  @Test
  void unknownScheme_isRefusedInsteadOfReadAsASocketPath() {
    for (String value : java.util.List.of("https://127.0.0.1:8080", "ws://h:1", "htp://127.0.0.1:1", "file:///tmp/t.sock")) {
      IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
          () -> Address.parse(value), value);
      org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("is not supported"), e.getMessage());
    }
  }
}
