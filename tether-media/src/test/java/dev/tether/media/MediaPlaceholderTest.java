package dev.tether.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MediaPlaceholderTest {
  private static MediaReference.Builder ref(String id, MediaKind kind, String mime) {
    return MediaReference.builder(id, "whatsapp", kind, mime).createdAt(Instant.parse("2026-04-15T10:00:00Z"));
  }

  @Test
  void format_imageWithCaptionMatchesSpecExample() {
    MediaReference r = ref("wa_3EB0A1B2", MediaKind.IMAGE, "image/jpeg")
        .fileName("sunset.jpg").size(2_400_000).caption("Beautiful sunset").build();
    assertEquals("[Image: sunset.jpg, 2.4MB, image/jpeg, ref:wa_3EB0A1B2] Beautiful sunset", r.placeholder().format());
  }

  @Test
  void format_documentWithoutCaptionHasNoTrailingSpace() {
    MediaReference r = ref("sl_F07B2C3D", MediaKind.DOCUMENT, "application/pdf")
        .fileName("report.pdf").size(847_000).build();
    assertEquals("[Document: report.pdf, 847KB, application/pdf, ref:sl_F07B2C3D]", r.placeholder().format());
  }

  @Test
  void format_unknownNameAndSizeAreLeftOut() {
    MediaReference r = ref("tg_AgACAgI", MediaKind.VOICE, "audio/ogg").build();
    assertEquals("[Voice: audio/ogg, ref:tg_AgACAgI]", r.placeholder().format());
  }

  @Test
  void parse_voiceExampleWithDurationAndTrailingSpace() {
    MediaPlaceholder p = MediaPlaceholder.parse("[Voice: 12s, audio/ogg, ref:tg_AgACAgI] ").orElseThrow();
    assertEquals(new MediaPlaceholder(MediaKind.VOICE, "12s", null, "audio/ogg", "tg_AgACAgI", ""), p);
  }

  @Test
  void parse_documentExampleReadsEveryPart() {
    MediaPlaceholder p = MediaPlaceholder.parse("[Document: report.pdf, 847KB, application/pdf, ref:sl_F07B2C3D]").orElseThrow();
    assertEquals(MediaKind.DOCUMENT, p.kind());
    assertEquals("report.pdf", p.name());
    assertEquals("847KB", p.size());
    assertEquals(OptionalLong.of(847_000), p.sizeBytes());
    assertEquals("application/pdf", p.mimeType());
    assertEquals("sl_F07B2C3D", p.ref());
    assertEquals("", p.caption());
  }

  @Test
  void parse_imageExampleKeepsCaption() {
    MediaPlaceholder p = MediaPlaceholder.parse("[Image: sunset.jpg, 2.4MB, image/jpeg, ref:wa_3EB0A1B2] Beautiful sunset").orElseThrow();
    assertEquals("Beautiful sunset", p.caption());
    assertEquals(OptionalLong.of(2_400_000), p.sizeBytes());
  }

  @Test
  void parse_toleratesMissingParts() {
    assertEquals(new MediaPlaceholder(MediaKind.IMAGE, null, null, null, "x1", ""),
        MediaPlaceholder.parse("[Image: ref:x1]").orElseThrow());
    assertEquals(new MediaPlaceholder(MediaKind.IMAGE, null, "2.4MB", null, "x1", ""),
        MediaPlaceholder.parse("[Image: 2.4MB, ref:x1]").orElseThrow());
    assertEquals(new MediaPlaceholder(MediaKind.VIDEO, "clip.mp4", null, null, "x1", "hi"),
        MediaPlaceholder.parse("[Video: clip.mp4, ref:x1] hi").orElseThrow());
    assertEquals(new MediaPlaceholder(MediaKind.STICKER, null, null, "image/webp", "x1", ""),
        MediaPlaceholder.parse("[Sticker: image/webp, ref:x1]").orElseThrow());
  }

  @Test
  void parse_toleratesCaseAndSpacing() {
    MediaPlaceholder p = MediaPlaceholder.parse("[image:a.png,12 kb,image/png,REF:x1]").orElseThrow();
    assertEquals(new MediaPlaceholder(MediaKind.IMAGE, "a.png", "12 kb", "image/png", "x1", ""), p);
    assertEquals(OptionalLong.of(12_000), p.sizeBytes());
  }

  @ParameterizedTest
  @ValueSource(strings = {"[Photo]", "[Image: sunset.jpg]", "[Unknown: ref:x]", "[Image: ref:]", "[Image: ref:a b]",
      "x [Image: ref:a]", "[Image: ref:a", "[Image: a\nb, ref:x]", "[Image: [a], ref:x]", "", "[", "[]",
      "[Image: ref:x/y]", "[Image ref:x]"})
  void parse_rejectsTextThatIsNotAPlaceholder(String text) {
    assertTrue(MediaPlaceholder.parse(text).isEmpty(), text);
  }

  @Test
  void hostileCaption_cannotForgeASecondPlaceholder() {
    MediaReference r = ref("real_1", MediaKind.IMAGE, "image/png").fileName("a.png")
        .caption("look ] [Image: evil.png, 1KB, image/png, ref:evil] [Document: x, ref:evil2]").build();
    String text = r.placeholder().format();
    List<MediaPlaceholder> found = MediaPlaceholder.findAll(text);
    assertEquals(1, found.size(), text);
    assertEquals("real_1", found.get(0).ref());
    assertFalse(found.get(0).caption().contains("["), found.get(0).caption());
    assertTrue(found.get(0).caption().contains("(Image: evil.png"));
  }

  @Test
  void hostileFileName_cannotForgeRefOrSecondPlaceholder() {
    MediaReference r = ref("real_1", MediaKind.DOCUMENT, "application/pdf")
        .fileName("a.pdf, 1KB, image/png, ref:evil] [Image: b.png, ref:evil2").size(10).build();
    String text = r.placeholder().format();
    List<MediaPlaceholder> found = MediaPlaceholder.findAll(text);
    assertEquals(1, found.size(), text);
    assertEquals("real_1", found.get(0).ref());
    assertEquals("application/pdf", found.get(0).mimeType());
    assertEquals("10B", found.get(0).size());
    assertEquals(found.get(0), MediaPlaceholder.parse(text).orElseThrow());
  }

  @Test
  void name_thatReadsAsSizeOrPathIsNeutralised() {
    assertEquals("12MB_", new MediaPlaceholder(MediaKind.IMAGE, "12MB", null, null, "x", "").name());
    assertEquals("image_png", new MediaPlaceholder(MediaKind.IMAGE, "image/png", null, null, "x", "").name());
    assertEquals("a b", new MediaPlaceholder(MediaKind.IMAGE, "a\nb", null, null, "x", "").name());
    assertNull(new MediaPlaceholder(MediaKind.IMAGE, " \t ", null, null, "x", "").name());
  }

  @Test
  void findAll_returnsEveryPlaceholderWithItsCaption() {
    String text = "[Image: a.png, ref:a1] first\n[Voice: 3s, audio/ogg, ref:v1] second [Photo]";
    List<MediaPlaceholder> found = MediaPlaceholder.findAll(text);
    assertEquals(2, found.size());
    assertEquals("first\n", found.get(0).caption());
    assertEquals("second (Photo)", found.get(1).caption());
  }

  @Test
  void constructor_rejectsInvalidSizeMimeAndRef() {
    assertThrows(IllegalArgumentException.class, () -> new MediaPlaceholder(MediaKind.IMAGE, null, "big", null, "x", ""));
    assertThrows(IllegalArgumentException.class, () -> new MediaPlaceholder(MediaKind.IMAGE, null, null, "png", "x", ""));
    assertThrows(IllegalArgumentException.class, () -> new MediaPlaceholder(MediaKind.IMAGE, null, null, null, "a]b", ""));
  }

  @Test
  void parse_longBracketRunsStayLinear() {
    String hostile = "[".repeat(200_000) + "Image: ref:x]";
    assertEquals(1, MediaPlaceholder.findAll(hostile).size());
  }
}
