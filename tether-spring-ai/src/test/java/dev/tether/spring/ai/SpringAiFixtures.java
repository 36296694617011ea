package dev.tether.spring.ai;

import dev.tether.api.MediaType;
import dev.tether.api.blobs.BlobKey;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import javax.imageio.ImageIO;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.util.MimeTypeUtils;

/** Random Spring AI conversations of what both sides hold, and a comparable view of messages. */
final class SpringAiFixtures {
  static final List<byte[]> PNGS = List.of(png(3, 2, 0x112233), png(5, 5, 0xff0000), png(1, 7, 0x00ff00));

  private SpringAiFixtures() {}

  static byte[] png(int w, int h, int rgb) {
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
    return out.toByteArray();
  }

  static Media image(byte[] png) {
    return Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(png)
        .id(BlobKey.forContent(png, MediaType.PNG).toString()).build();
  }

  static String text(Random r) {
    String[] words = {"look", "at", "this", "ünïcode", "\"quoted\"", "line\nbreak", "😀"};
    return words[r.nextInt(words.length)] + " " + r.nextInt(1000);
  }

  static List<Media> images(Random r) {
    List<Media> out = new ArrayList<>();
    for (int i = r.nextInt(3); i > 0; i--) {
      out.add(image(PNGS.get(r.nextInt(PNGS.size()))));
    }
    return out;
  }

  static List<Message> of(long seed) {
    Random r = new Random(seed);
    List<Message> out = new ArrayList<>();
    if (r.nextBoolean()) {
      out.add(new SystemMessage("be brief " + r.nextInt(100)));
    }
    for (int i = r.nextInt(7); i > 0; i--) {
      out.add(UserMessage.builder().text(text(r)).media(images(r)).build());
      List<AssistantMessage.ToolCall> calls = new ArrayList<>();
      for (int c = r.nextInt(3); c > 0; c--) {
        calls.add(new AssistantMessage.ToolCall("call-" + i + "-" + c, "function", "tool" + r.nextInt(3),
            "{\"n\":" + r.nextInt(10) + "}"));
      }
      out.add(AssistantMessage.builder().content(text(r)).media(r.nextInt(4) == 0 ? images(r) : List.of())
          .toolCalls(calls).build());
      if (!calls.isEmpty()) {
        List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
        for (AssistantMessage.ToolCall call : calls) {
          responses.add(new ToolResponseMessage.ToolResponse(call.id(), call.name(), text(r)));
        }
        out.add(ToolResponseMessage.builder().responses(responses).build());
      }
    }
    return out;
  }

  /** What a message holds, comparable (Media compares its bytes by reference). */
  static String view(Message m) {
    return view(m, true);
  }

  /** As {@link #view(Message)}; without media names when {@code names} is false (the mapping drops them). */
  static String view(Message m, boolean names) {
    StringBuilder b = new StringBuilder(m.getMessageType() + "|" + m.getText());
    List<Media> media = m instanceof UserMessage u ? u.getMedia() : m instanceof AssistantMessage a ? a.getMedia() : List.of();
    for (Media x : media) {
      b.append("|media ").append(x.getMimeType()).append(' ').append(x.getId()).append(' ').append(names ? x.getName() : "").append(' ')
          .append(x.getData() instanceof byte[] bytes ? Base64.getEncoder().encodeToString(bytes) : String.valueOf(x.getData()));
    }
    if (m instanceof AssistantMessage a) {
      a.getToolCalls().forEach(c -> b.append("|call ").append(c));
    }
    if (m instanceof ToolResponseMessage t) {
      t.getResponses().forEach(c -> b.append("|response ").append(c));
    }
    return b.toString();
  }

  static List<String> views(List<Message> messages) {
    return messages.stream().map(SpringAiFixtures::view).toList();
  }

  static List<String> viewsWithoutNames(List<Message> messages) {
    return messages.stream().map(m -> view(m, false)).toList();
  }
}
