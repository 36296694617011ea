package dev.tether.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FrameTypeTagsTest {
  @Test
  void everyKnownType_mapsToItsOwnIndex_anythingElseToOther() {
    for (int i = 0; i < FrameTypeTags.KNOWN.size(); i++) {
      assertEquals(i, FrameTypeTags.index(FrameTypeTags.KNOWN.get(i)));
      assertEquals(FrameTypeTags.KNOWN.get(i), FrameTypeTags.name(i));
    }
    assertEquals(FrameTypeTags.OTHER_INDEX, FrameTypeTags.index("x.custom"));
    assertEquals(FrameTypeTags.OTHER_INDEX, FrameTypeTags.index("User.Message"));
    assertEquals("other", FrameTypeTags.name(FrameTypeTags.OTHER_INDEX));
  }
}
