package dev.tether.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.Conversation;
import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.RawJson;
import dev.tether.api.Role;
import dev.tether.api.Turn;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Properties of the profile check over generated image sets, on small profiles derived from the
 * built-in ones (so limits are hit with kilobytes, not megabytes): within every limit a request
 * builds; one image beyond a limit is rejected naming that image and the rule; and the base64 in
 * every output is bare, padded and whitespace-free, except inside OpenAI's data URIs.
 */
class ProfilePropertiesTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Pattern BASE64 = Pattern.compile("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");
  private static final Pattern DATA_URI = Pattern.compile("data:image/(png|jpeg|gif|webp);base64,(.*)", Pattern.DOTALL);

  /** A small profile for each provider, with limits drawn from {@code random}. */
  static ProviderProfile smallProfile(Random random) {
    List<ProviderProfile> bases = GoldenRequestTest.profiles();
    ProviderProfile base = bases.get(random.nextInt(bases.size()));
    ProviderProfile.Builder b = base.toBuilder()
        .maxImageSize(base.sizeMeasure(), 200 + random.nextInt(4000))
        .maxImagesPerRequest(1 + random.nextInt(8))
        .maxDimension(random.nextBoolean() ? 0 : 50 + random.nextInt(5000))
        .maxTotalImageSize(0);
    if (random.nextBoolean()) {
      b.manyImages(1 + random.nextInt(4), 40 + random.nextInt(50));
    }
    return b.build();
  }

  /** A PNG (or, where the profile takes it, a JPEG-declared JPEG header) within every limit of {@code p}. */
  static Part.Image imageWithin(ProviderProfile p, int imageCount, Random random) {
    int maxSide = p.maxDimension(imageCount) == 0 ? 20_000 : p.maxDimension(imageCount);
    long maxDecoded = p.sizeMeasure() == ProviderProfile.SizeMeasure.BASE64_CHARS ? p.maxImageSize() / 4 * 3 : p.maxImageSize();
    int size = 33 + random.nextInt((int) Math.max(1, maxDecoded - 33));
    byte[] bytes = Fixtures.pngHeader(1 + random.nextInt(maxSide), 1 + random.nextInt(maxSide), size);
    for (int i = 33; i < bytes.length; i++) {
      bytes[i] = (byte) random.nextInt();
    }
    return random.nextBoolean()
        ? new Part.Image(MediaType.PNG, ImageData.ofBytes(bytes))
        : new Part.Image(MediaType.PNG, ImageData.ofBase64(unpadMaybe(Base64.getEncoder().encodeToString(bytes), random)));
  }

  private static String unpadMaybe(String base64, Random random) {
    return random.nextBoolean() ? base64.replace("=", "") : base64;
  }

  /** Spreads images over user turns and a tool result, in order. */
  static Conversation conversation(List<Part.Image> images, Random random) {
    List<Turn> turns = new ArrayList<>();
    turns.add(Turn.user(new Part.Text("start")));
    Iterator<Part.Image> it = images.iterator();
    int call = 0;
    while (it.hasNext()) {
      if (random.nextBoolean()) {
        List<Part> parts = new ArrayList<>(List.of(new Part.Text("look")));
        parts.add(it.next());
        if (it.hasNext() && random.nextBoolean()) {
          parts.add(it.next());
        }
        turns.add(new Turn(Role.USER, parts));
      } else {
        String id = "call_" + call++;
        turns.add(Turn.assistant(new Part.ToolUse(id, "shot", RawJson.of("{}"))));
        turns.add(Turn.user(new Part.ToolResult(id, List.of(new Part.Text("ok"), it.next()), random.nextBoolean())));
      }
    }
    return new Conversation(random.nextBoolean() ? "" : "system", turns);
  }

  @Test
  void everyImageSetWithinTheLimits_builds() {
    qt().withExamples(300).withFixedSeed(5L).forAll(longs().all()).checkAssert(seed -> {
      Random random = new Random(seed);
      ProviderProfile p = smallProfile(random);
      int count = random.nextInt(p.maxImagesPerRequest() + 1);
      List<Part.Image> images = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        images.add(imageWithin(p, count, random));
      }
      LlmRequest request = LlmRequest.prepare(p, conversation(images, random));
      assertEquals(count, base64Values(request.toTree(), p.provider()).size(), p.toString());
    });
  }

  enum Violation { SIZE, DIMENSIONS, FORMAT, TYPE_MISMATCH, COUNT }

  @Test
  void oneImageBeyondALimit_isRejectedNamingThatImage() {
    qt().withExamples(300).withFixedSeed(7L).forAll(longs().all(), integers().between(0, Violation.values().length - 1))
        .checkAssert((seed, v) -> {
          Random random = new Random(seed);
          Violation violation = Violation.values()[v];
          ProviderProfile p = smallProfile(random);
          if (violation == Violation.DIMENSIONS && p.maxDimension() == 0) {
            p = p.toBuilder().maxDimension(100).build();
          }
          if (violation == Violation.FORMAT) {
            p = p.toBuilder().formats(EnumSet.of(MediaType.PNG, MediaType.JPEG)).build();
          }
          int count = violation == Violation.COUNT ? p.maxImagesPerRequest() + 1 + random.nextInt(3)
              : 1 + random.nextInt(p.maxImagesPerRequest());
          int bad = violation == Violation.COUNT ? p.maxImagesPerRequest() : random.nextInt(count);
          List<Part.Image> images = new ArrayList<>();
          for (int i = 0; i < count; i++) {
            images.add(i == bad && violation != Violation.COUNT ? broken(p, count, violation) : imageWithin(p, count, random));
          }
          ProviderProfile profile = p;
          ImageRuleException e = assertThrows(ImageRuleException.class,
              () -> LlmRequest.prepare(profile, conversation(images, random)), violation + " " + profile);
          assertEquals(bad, e.imageIndex(), e.getMessage());
          assertEquals(ImageRule.valueOf(violation.name()), e.rule(), e.getMessage());
          assertEquals(p.name(), e.profileName());
          assertTrue(e.getMessage().startsWith("image " + bad + " cannot go to " + p.name() + ": "), e.getMessage());
        });
  }

  private static Part.Image broken(ProviderProfile p, int count, Violation violation) {
    return switch (violation) {
      case SIZE -> {
        long maxDecoded = p.sizeMeasure() == ProviderProfile.SizeMeasure.BASE64_CHARS ? p.maxImageSize() / 4 * 3 : p.maxImageSize();
        yield Fixtures.pngPart(10, 10, (int) maxDecoded + 1 + (int) (maxDecoded % 7));
      }
      case DIMENSIONS -> Fixtures.pngPart(p.maxDimension(count) + 1, 5, 40);
      case FORMAT -> new Part.Image(MediaType.GIF, ImageData.ofBytes(Fixtures.gifOf(2, 2)));
      case TYPE_MISMATCH -> new Part.Image(MediaType.JPEG, ImageData.ofBytes(Fixtures.pngHeader(3, 3, 40)));
      case COUNT -> throw new IllegalStateException();
    };
  }

  @Test
  void base64InEveryOutput_isBareAndPadded_exceptOpenAiDataUris() {
    qt().withExamples(200).withFixedSeed(11L).forAll(longs().all()).checkAssert(seed -> {
      Random random = new Random(seed);
      ProviderProfile p = smallProfile(random);
      int count = random.nextInt(p.maxImagesPerRequest() + 1);
      List<Part.Image> images = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        images.add(imageWithin(p, count, random));
      }
      JsonNode tree = LlmRequest.prepare(p, conversation(images, random)).toTree();
      List<String> values = base64Values(tree, p.provider());
      assertEquals(count, values.size());
      for (int i = 0; i < count; i++) {
        String value = values.get(i);
        assertTrue(BASE64.matcher(value).matches(), "not bare padded base64: " + value.substring(0, Math.min(40, value.length())));
        assertEquals(Base64.getEncoder().encodeToString(images.get(i).data().toByteArray()), value);
      }
      assertNoOtherDataUris(tree, p.provider(), false);
    });
  }

  /**
   * The base64 of every image in document order: Claude/Gemini "data", Ollama "images" elements,
   * OpenAI data URIs with their required prefix checked and stripped.
   */
  static List<String> base64Values(JsonNode node, Provider provider) {
    List<String> out = new ArrayList<>();
    collect(node, null, provider, out);
    return out;
  }

  private static void collect(JsonNode node, String field, Provider provider, List<String> out) {
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        collect(e.getValue(), e.getKey(), provider, out);
      }
    } else if (node.isArray()) {
      for (JsonNode element : node) {
        collect(element, "images".equals(field) ? "images[]" : null, provider, out);
      }
    } else if (node.isTextual()) {
      String text = node.asText();
      boolean openAi = provider == Provider.OPENAI_CHAT || provider == Provider.OPENAI_RESPONSES;
      if (openAi && ("url".equals(field) || "image_url".equals(field))) {
        var m = DATA_URI.matcher(text);
        assertTrue(m.matches(), "OpenAI needs a data URI: " + text.substring(0, Math.min(40, text.length())));
        out.add(m.group(2));
      } else if (!openAi && ("data".equals(field) || "images[]".equals(field))) {
        out.add(text);
      }
    }
  }

  private static void assertNoOtherDataUris(JsonNode node, Provider provider, boolean allowed) {
    if (node.isObject()) {
      node.fields().forEachRemaining(e -> assertNoOtherDataUris(e.getValue(), provider,
          (provider == Provider.OPENAI_CHAT || provider == Provider.OPENAI_RESPONSES)
              && ("url".equals(e.getKey()) || "image_url".equals(e.getKey()))));
    } else if (node.isArray()) {
      node.forEach(n -> assertNoOtherDataUris(n, provider, false));
    } else if (node.isTextual() && !allowed) {
      assertTrue(!node.asText().startsWith("data:"), "a data: prefix outside OpenAI's image URL");
    }
  }
}
