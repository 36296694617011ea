package dev.tether.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InstanceTagsPropertyTest {
  @Test
  void anyStreamOfNames_neverYieldsMoreValuesThanTheBound_andADecisionNeverChanges() {
    qt().forAll(lists().of(strings().basicLatinAlphabet().ofLengthBetween(1, 6)).ofSizeBetween(0, 400),
            integers().between(0, 20))
        .checkAssert((names, max) -> {
          InstanceTags tags = InstanceTags.firstSeen(Set.of("vm1", "vm2"), max);
          Set<String> values = new HashSet<>();
          java.util.Map<String, String> first = new java.util.HashMap<>();
          for (String n : names) {
            String v = tags.of(n);
            values.add(v);
            assertEquals(first.computeIfAbsent(n, k -> v), v, "the tag of " + n + " changed");
          }
          assertEquals(true, values.size() <= tags.maxValues(), values.size() + " > " + tags.maxValues());
        });
  }

  @Test
  void optIn_namedKeepTheirName_everythingElseIsOther() {
    InstanceTags tags = InstanceTags.only(Set.of("vm1"));
    assertEquals("vm1", tags.of("vm1"));
    assertEquals(InstanceTags.OTHER, tags.of("vm2"));
    assertEquals(List.of(InstanceTags.OTHER, InstanceTags.OTHER), List.of(InstanceTags.none().of("vm1"), InstanceTags.none().of("x")));
  }

  @Test
  void firstSeen_capIsChecked() {
    assertThrows(IllegalArgumentException.class, () -> InstanceTags.firstSeen(Set.of(), 1001));
    assertThrows(IllegalArgumentException.class, () -> InstanceTags.firstSeen(Set.of(), -1));
  }
}
