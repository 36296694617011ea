package dev.tether.cli;

import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.Turn;
import dev.tether.client.AttachmentInfo;
import dev.tether.images.Images;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The agent's answer when no model is configured: deterministic, so tests and the README can
 * rely on it. It describes each received image (format, pixel size, bytes) and, when the text
 * asks for a chart, draws one ({@link ChartPainter}) and returns it as a PNG. Each line of the
 * text is streamed as one delta. Stateless and thread-safe.
 */
final class DemoReplier implements Replier {
  @Override
  public Reply reply(List<Turn> history, Payload.UserMessage message, Consumer<String> deltas, BooleanSupplier cancelled) {
    List<String> lines = new ArrayList<>();
    List<Image> images = message.images();
    if (images.isEmpty()) {
      lines.add("You said: " + message.text());
    } else {
      lines.add("I received " + images.size() + (images.size() == 1 ? " image:" : " images:"));
      for (int i = 0; i < images.size(); i++) {
        lines.add(ImageDescriber.describe(i, images.get(i)));
      }
    }
    List<Image> out = new ArrayList<>();
    String asked = AttachmentInfo.withoutNotices(message.text()); // an attachment's size is no chart value
    if (!asked.equals(message.text())) {
      lines.add("Files are attached to this session; an agent reads them with list_attachments and read_attachment.");
    }
    if (ChartPainter.wantsChart(asked)) {
      List<Double> values = ChartPainter.values(asked);
      out.add(Images.fromBytes(ChartPainter.png("Chart of " + values.size() + " values", values), MediaType.PNG));
      lines.add("Here is a bar chart of " + values.size() + " values (" + ChartPainter.WIDTH + "x" + ChartPainter.HEIGHT + " PNG).");
    }
    lines.add("(This is session turn " + (history.size() / 2 + 1) + ".)");
    StringBuilder text = new StringBuilder();
    for (String line : lines) {
      if (cancelled.getAsBoolean()) {
        break;
      }
      String piece = (text.length() == 0 ? "" : "\n") + line;
      text.append(piece);
      deltas.accept(piece);
    }
    return new Reply(text.toString(), cancelled.getAsBoolean() ? List.of() : out);
  }

  @Override
  public String describe() {
    return "demo (no model; set ANTHROPIC_API_KEY, OPENAI_API_KEY or OLLAMA_HOST for a real one)";
  }
}
