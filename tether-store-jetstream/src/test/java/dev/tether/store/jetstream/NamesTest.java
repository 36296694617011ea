package dev.tether.store.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.strings;

import dev.tether.api.SessionKey;
import dev.tether.store.jetstream.internal.Names;
import org.junit.jupiter.api.Test;

class NamesTest {
  final Names names = new Names("tether");

  @Test
  void streamNamesAndSubjects_useOnlySafeCharacters() {
    qt().forAll(strings().allPossible().ofLengthBetween(1, 200)).checkAssert(s -> {
      assertTrue(names.stream(s).matches("[A-Za-z0-9_-]+"), names.stream(s));
      assertTrue(names.stream(s).length() <= 120, names.stream(s));
      assertTrue(names.subject(s, new SessionKey(s, s)).matches("[A-Za-z0-9_.-]+"));
    });
  }

  @Test
  void differentNames_neverShareAStream() {
    qt().forAll(strings().allPossible().ofLengthBetween(1, 120), strings().allPossible().ofLengthBetween(1, 120))
        .assuming((a, b) -> !a.equals(b))
        .checkAssert((a, b) -> assertNotEquals(names.stream(a), names.stream(b)));
    assertNotEquals(names.stream("a.b"), names.stream("a_2eb"));
    assertNotEquals(names.stream("h" + "0".repeat(64)), names.stream("x".repeat(200)));
    assertEquals("TETHER_F_vm-1", names.stream("vm-1"));
    assertEquals("tether.f.vm.s.host.a_2eb", names.subject("vm", new SessionKey("host", "a.b")));
  }
}
