package dev.tether.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link CommandWaker} with real scripts: the instance in the environment, a hanging command killed. */
class CommandWakerTest {
  @TempDir Path dir;

  private Path script(String name, String body) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }

  @Test
  void theInstanceIdTravelsInTheEnvironment_neverThroughAShell() throws Exception {
    Path out = dir.resolve("woken");
    Path s = script("wake.sh", "printf '%s' \"$TETHER_INSTANCE\" > '" + out + "'");
    CommandWaker.of(List.of(s.toString()), Duration.ofSeconds(20)).wake("vm-1.a_b");
    assertEquals("vm-1.a_b", Files.readString(out));
  }

  @Test
  void shellForm_runsTheOperatorsScript_withTheInstanceInTheEnvironment() throws Exception {
    Path out = dir.resolve("woken");
    CommandWaker.shell("echo \"woke $TETHER_INSTANCE\" > '" + out + "'", Duration.ofSeconds(20)).wake("vm2");
    assertEquals("woke vm2\n", Files.readString(out));
  }

  @Test
  void aHangingCommand_isKilledWithItsChildrenAtItsTimeout() throws Exception {
    Path pid = dir.resolve("child.pid");
    Path s = script("hang.sh", "sleep 60 &\necho $! > '" + pid + "'\nwait");
    CommandWaker waker = CommandWaker.of(List.of(s.toString()), Duration.ofMillis(500));
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> waker.wake("vm1"));
    long child = Long.parseLong(Files.readString(pid).strip());
    ProcessHandle.of(child).ifPresent(h -> assertTimeoutPreemptively(Duration.ofSeconds(5), () -> h.onExit().join(),
        "the script's child is killed too"));
  }

  @Test
  void builderRefusesAnEmptyCommandOrTimeout() {
    assertThrows(IllegalArgumentException.class, () -> CommandWaker.of(List.of(), Duration.ofSeconds(1)));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CommandWaker.of(List.of("/bin/true"), Duration.ZERO));
    assertTrue(e.getMessage().startsWith("timeout must be > 0"), e.getMessage());
  }
}
