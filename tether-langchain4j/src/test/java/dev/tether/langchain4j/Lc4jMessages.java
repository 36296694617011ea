package dev.tether.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.image.Image;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.ImageContent.DetailLevel;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.imageio.ImageIO;

/**
 * Random LangChain4j conversations of everything both sides hold (a system message first, user
 * text and images with an explicit detail of LOW, HIGH or AUTO, AI text, images and tool calls,
 * tool results with text and images answering those calls), from a seed.
 */
final class Lc4jMessages {
  static final List<String> PNGS = List.of(png(3, 2, 0x112233), png(5, 5, 0xff0000), png(1, 7, 0x00ff00));
  private static final DetailLevel[] DETAILS = {DetailLevel.LOW, DetailLevel.HIGH, DetailLevel.AUTO};

  private Lc4jMessages() {}

  static String png(int w, int h, int rgb) {
    BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    for (int x = 0; x < w; x++) {
      for (int y = 0; y < h; y++) {
        image.setRGB(x, y, rgb + x * 7 + y);
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ImageIO.write(image, "png", out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Base64.getEncoder().encodeToString(out.toByteArray());
  }

  static Image image(Random r) {
    return Image.builder().base64Data(PNGS.get(r.nextInt(PNGS.size()))).mimeType("image/png").build();
  }

  static String text(Random r) {
    String[] words = {"look", "at", "this", "chart", "ünïcode", "\"quoted\"", "line\nbreak", "😀", ""};
    StringBuilder b = new StringBuilder();
    int n = 1 + r.nextInt(4);
    for (int i = 0; i < n; i++) {
      b.append(words[r.nextInt(words.length)]).append(i + 1 < n ? " " : "");
    }
    return b.toString();
  }

  static List<Content> contents(Random r, boolean allowEmpty) {
    List<Content> out = new ArrayList<>();
    int n = (allowEmpty ? 0 : 1) + r.nextInt(3);
    for (int i = 0; i < n; i++) {
      out.add(r.nextBoolean() ? TextContent.from(text(r)) : ImageContent.from(image(r), DETAILS[r.nextInt(3)]));
    }
    return out;
  }

  static List<ChatMessage> of(long seed) {
    Random r = new Random(seed);
    List<ChatMessage> out = new ArrayList<>();
    if (r.nextBoolean()) {
      out.add(SystemMessage.from("be brief " + r.nextInt(100)));
    }
    int n = r.nextInt(8);
    for (int i = 0; i < n; i++) {
      out.add(UserMessage.from(contents(r, false)));
      List<ToolExecutionRequest> calls = new ArrayList<>();
      int k = r.nextInt(3);
      for (int c = 0; c < k; c++) {
        calls.add(ToolExecutionRequest.builder().id("call-" + i + "-" + c).name("tool" + r.nextInt(3))
            .arguments("{\"n\":" + r.nextInt(10) + "}").build());
      }
      AiMessage.Builder ai = AiMessage.builder().text(calls.isEmpty() || r.nextBoolean() ? text(r) : null)
          .toolExecutionRequests(calls);
      if (r.nextInt(4) == 0) {
        ai.attributes(Map.of(AiMessage.GENERATED_IMAGES_KEY, List.of(image(r))));
      }
      out.add(ai.build());
      for (ToolExecutionRequest call : calls) {
        out.add(ToolExecutionResultMessage.builder().id(call.id()).toolName(call.name()).contents(contents(r, false))
            .isError(r.nextInt(5) == 0).build());
      }
    }
    return out;
  }
}
