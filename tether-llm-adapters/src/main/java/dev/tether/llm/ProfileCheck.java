package dev.tether.llm;

import dev.tether.api.Conversation;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.Role;
import dev.tether.api.TetherException;
import dev.tether.api.Turn;
import dev.tether.images.Images;
import dev.tether.images.ImageHeaders;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Checks every image of a conversation against a profile, in image order, and either rejects the
 * first image that breaks a rule or (when fitting) replaces the images that can be fitted.
 *
 * <p>Per image, in this order: well-formed data, declared type matches the signature, format,
 * placement, count, size, dimensions, running total. Type mismatches, bad data, placement and
 * count are never "fitted": we do not guess types and do not drop images.
 */
final class ProfileCheck {
  /** Base64 text is checked by the images module without a size cap; the profile applies its own. */
  private static final Limits NO_SIZE_LIMIT = Limits.builder().maxImageBytes(Long.MAX_VALUE).build();

  record Result(Conversation conversation, FitReport report) {}

  private ProfileCheck() {}

  static Result check(ProviderProfile profile, Conversation conversation, RequestOptions options) {
    boolean fit = options.fitImages();
    requireShapes(conversation);
    int count = conversation.images().size();
    int maxDimension = profile.maxDimension(count);
    List<FitReport.Change> changes = new ArrayList<>();
    List<Turn> turns = new ArrayList<>(conversation.turns().size());
    int[] index = {0};
    long[] total = {0};
    for (Turn turn : conversation.turns()) {
      List<Part> parts = new ArrayList<>(turn.parts().size());
      boolean changed = false;
      for (Part part : turn.parts()) {
        Part checked = part;
        if (part instanceof Part.Image image) {
          checked = checkImage(profile, image, turn.role(), index, total, count, maxDimension, fit, changes);
        } else if (part instanceof Part.ToolResult result) {
          List<Part> inner = new ArrayList<>(result.content().size());
          boolean innerChanged = false;
          for (Part p : result.content()) {
            Part q = p instanceof Part.Image image
                ? checkImage(profile, image, Role.USER, index, total, count, maxDimension, fit, changes)
                : p;
            innerChanged |= q != p;
            inner.add(q);
          }
          if (innerChanged) {
            checked = new Part.ToolResult(result.toolUseId(), inner, result.isError());
          }
        }
        changed |= checked != part;
        parts.add(checked);
      }
      turns.add(changed ? new Turn(turn.role(), parts) : turn);
    }
    Conversation out = changes.isEmpty() ? conversation : new Conversation(conversation.systemPrompt(), turns);
    List<FitReport.ImageTokens> tokens = estimates(profile, out, options);
    return new Result(out, changes.isEmpty() && tokens.isEmpty() ? FitReport.empty() : new FitReport(changes, tokens));
  }

  /**
   * The token estimate of each image as it will be sent, from its header's dimensions; an image
   * whose header cannot be read (only possible where the profile checks no dimensions) has none.
   */
  private static List<FitReport.ImageTokens> estimates(ProviderProfile profile, Conversation conversation,
      RequestOptions options) {
    if (profile.imageTokenRule() == ImageTokenRule.NONE) {
      return List.of();
    }
    List<FitReport.ImageTokens> out = new ArrayList<>();
    List<Part.Image> images = conversation.images();
    for (int i = 0; i < images.size(); i++) {
      Pixels.Size size;
      try {
        size = Pixels.of(images.get(i), i, profile);
      } catch (ImageRuleException e) {
        continue;
      }
      if (size.width() <= 0 || size.height() <= 0) {
        continue;
      }
      ImageDetail detail = options.detailOf(i);
      out.add(new FitReport.ImageTokens(i, size.width(), size.height(), detail,
          profile.imageTokens(size.width(), size.height(), detail).orElseThrow()));
    }
    return out;
  }

  private static Part.Image checkImage(ProviderProfile profile, Part.Image image, Role role, int[] indexBox,
      long[] total, int count, int maxDimension, boolean fit, List<FitReport.Change> changes) {
    int index = indexBox[0]++;
    requireWellFormed(profile, image, index);
    if (role == Role.ASSISTANT && !profile.assistantImages()) {
      throw ImageRuleException.of(index, profile, ImageRule.PLACEMENT,
          profile.provider().displayName() + " takes images in user turns and tool results only, not in assistant turns;"
              + " move the image to a user turn");
    }
    if (index >= profile.maxImagesPerRequest()) {
      throw ImageRuleException.of(index, profile, ImageRule.COUNT,
          "the request has " + count + " images and at most " + profile.maxImagesPerRequest()
              + " are allowed; send fewer images");
    }
    Part.Image result = image;
    List<String> reasons = new ArrayList<>();
    if (!profile.formats().contains(image.mediaType())) {
      reasons.add(image.mediaType().mimeType() + " is not accepted (" + formats(profile) + ")");
    }
    long size = profile.measure(image.data().size());
    if (size > profile.maxImageSize()) {
      reasons.add("its size is " + describe(profile, size) + ", over the limit of " + describe(profile, profile.maxImageSize()));
    }
    Pixels.Size pixels = null;
    if (maxDimension > 0) {
      pixels = Pixels.of(image, index, profile);
      if (pixels != null && Math.max(pixels.width(), pixels.height()) > maxDimension) {
        reasons.add("it is " + pixels.width() + "x" + pixels.height() + " px, over " + maxDimension + " px per side"
            + (maxDimension != profile.maxDimension() ? " (the limit when a request has more than the threshold of images)" : ""));
      }
    }
    if (!reasons.isEmpty()) {
      if (!fit) {
        ImageRule rule = !profile.formats().contains(image.mediaType()) ? ImageRule.FORMAT
            : size > profile.maxImageSize() ? ImageRule.SIZE : ImageRule.DIMENSIONS;
        String advice = switch (rule) {
          case FORMAT -> "; convert it to one of those, or enable fitting (RequestOptions.withFitImages)";
          case SIZE -> "; recompress or downscale it, or enable fitting (RequestOptions.withFitImages)";
          default -> "; downscale it, or enable fitting (RequestOptions.withFitImages)";
        };
        throw ImageRuleException.of(index, profile, rule, reasons.get(0) + advice);
      }
      ImageFitter.Fitted fitted = ImageFitter.fit(profile, image, index, maxDimension, reasons);
      changes.add(fitted.change());
      result = fitted.image();
      size = profile.measure(result.data().size());
    }
    total[0] += size;
    if (profile.maxTotalImageSize() > 0 && total[0] > profile.maxTotalImageSize()) {
      throw ImageRuleException.of(index, profile, ImageRule.TOTAL_SIZE,
          "with it the request's images add up to " + describe(profile, total[0]) + ", over the limit of "
              + describe(profile, profile.maxTotalImageSize()) + " for all images together; send fewer or smaller images");
    }
    return result;
  }

  /**
   * Rejects bad base64, data: prefixes and declared types that do not match the bytes. Base64 that
   * a validator passed as part of its frame under this very media type ({@link
   * dev.tether.api.ImageProof}) was checked for all three on the same text and is not scanned again.
   */
  private static void requireWellFormed(ProviderProfile profile, Part.Image image, int index) {
    if (image.data().isVerifiedAs(image.mediaType())) {
      return;
    }
    if (image.data().isBase64()) {
      try {
        Images.of(image.mediaType(), image.data().base64(), NO_SIZE_LIMIT);
      } catch (TetherException e) {
        ImageRule rule = switch (e.code()) {
          case MEDIA_TYPE_MISMATCH -> ImageRule.TYPE_MISMATCH;
          default -> ImageRule.INVALID_DATA;
        };
        String message = e.getMessage().replaceFirst("^image 0: ", "").replaceFirst("^image 0 ", "it ");
        throw ImageRuleException.of(index, profile, rule, message, e);
      }
      return;
    }
    byte[] head = new byte[12];
    int n;
    try (InputStream in = image.data().openStream()) {
      n = in.readNBytes(head, 0, head.length);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    MediaType actual = ImageHeaders.signature(head, 0, n).orElse(null);
    if (actual != image.mediaType()) {
      throw ImageRuleException.of(index, profile, ImageRule.TYPE_MISMATCH,
          "it is declared as " + image.mediaType().mimeType() + " but its bytes "
              + (actual == null ? "are not a PNG, JPEG, GIF or WebP image" : "are " + actual.mimeType())
              + "; declare the type that matches the bytes");
    }
  }

  /** Tool uses belong to assistant turns and tool results to user turns, in every format. */
  private static void requireShapes(Conversation conversation) {
    for (int t = 0; t < conversation.turns().size(); t++) {
      Turn turn = conversation.turns().get(t);
      for (Part part : turn.parts()) {
        if (part instanceof Part.ToolUse && turn.role() != Role.ASSISTANT) {
          throw new IllegalArgumentException("turn " + t + ": a tool use belongs to an assistant turn, not a user turn");
        }
        if (part instanceof Part.ToolResult && turn.role() != Role.USER) {
          throw new IllegalArgumentException("turn " + t + ": a tool result belongs to a user turn, not an assistant turn");
        }
      }
    }
  }

  static String formats(ProviderProfile profile) {
    List<String> names = new ArrayList<>();
    for (MediaType type : MediaType.values()) {
      if (profile.formats().contains(type)) {
        names.add(type.mimeType());
      }
    }
    return "accepted: " + String.join(", ", names);
  }

  static String describe(ProviderProfile profile, long size) {
    String unit = profile.sizeMeasure() == ProviderProfile.SizeMeasure.BASE64_CHARS ? " base64 characters" : " bytes";
    if (size >= 1 << 20) {
      return String.format(Locale.ROOT, "%.2f MiB (%d%s)", size / (1024.0 * 1024), size, unit);
    }
    return size + unit;
  }
}
