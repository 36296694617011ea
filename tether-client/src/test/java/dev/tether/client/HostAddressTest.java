package dev.tether.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HostAddressTest {
  @Test
  void socketForms() {
    assertEquals(new HostAddress.Unix(Path.of("/run/t.sock")), HostAddress.parse("unix:/run/t.sock"));
    assertEquals(new HostAddress.Unix(Path.of("/run/t.sock")), HostAddress.parse("/run/t.sock"));
    assertEquals(new HostAddress.Unix(Path.of("./t.sock")), HostAddress.parse("./t.sock"));
  }

  @Test
  void tcpForms() {
    assertEquals(new HostAddress.Tcp("127.0.0.1", 8080), HostAddress.parse("127.0.0.1:8080"));
    assertEquals(new HostAddress.Tcp("127.0.0.1", 8080), HostAddress.parse("http://127.0.0.1:8080"));
    assertEquals(new HostAddress.Tcp("::1", 9), HostAddress.parse("[::1]:9"));
  }

  @Test
  void garbage_isRejectedNamingTheValue() {
    for (String bad : new String[] {"", "localhost", "host:port", "127.0.0.1:99999", "http://nohost"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HostAddress.parse(bad), bad);
      assertTrue(e.getMessage().contains(bad.isEmpty() ? "''" : bad) || e.getMessage().contains("port"), e.getMessage());
    }
  }

  @Test
  void loopbackCheck() {
    assertTrue(new HostAddress.Tcp("127.0.0.1", 1).isLoopback());
    assertTrue(new HostAddress.Tcp("localhost", 1).isLoopback());
    assertFalse(new HostAddress.Tcp("0.0.0.0", 1).isLoopback());
    assertFalse(new HostAddress.Tcp("10.1.2.3", 1).isLoopback());
  }

  @Test
  void unknownScheme_isRefusedInsteadOfReadAsASocketPath() {
    for (String value : java.util.List.of("https://127.0.0.1:8080", "ws://h:1", "htp://127.0.0.1:1", "file:///tmp/t.sock")) {
      IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
          () -> HostAddress.parse(value), value);
      org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("is not supported"), e.getMessage());
    }
  }
}
