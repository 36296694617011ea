package dev.tether.sessions;

import dev.tether.api.blobs.BlobStore;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobCorruptedException;
import dev.tether.api.Conversation;
import dev.tether.api.ImageData;
import dev.tether.api.Part;
import dev.tether.api.Turn;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Builds the {@link Conversation} an agent sends to a model from stored turns.
 *
 * <ol>
 *   <li><b>Select</b>: walk from the newest turn backwards, taking whole turns while both limits
 *       hold: at most {@code maxTurns} turns, and at most {@code maxChars} characters counting the
 *       system prompt. A text counts its length, a tool use its name plus its input's JSON, and
 *       an image a fixed {@code imageCost} (2000 by default) whatever its bytes. The walk touches
 *       only the turns it selects (plus the one that stops it), never the whole session.
 *   <li><b>Trim</b> so tool chains are whole: a tool result whose tool use was not selected (cut
 *       off at the front) is removed, and so is a tool use with no result in the selection; a turn
 *       left with nothing is dropped. Trimming only removes, so the limits still hold.
 *   <li><b>Resolve</b>: image refs of the selected turns are read from the blob store, and only
 *       theirs. A missing or corrupt blob drops that image part alone, with a warning; a turn that
 *       held nothing but that image keeps the text {@value #IMAGE_UNAVAILABLE} so that the turn
 *       order (user, assistant, ...) survives.
 * </ol>
 *
 * <p><b>Newest images only.</b> With {@link #withMaxImages(int)}, only the newest N images of
 * the selection (counting images inside tool results) stay images; every older one becomes the
 * text {@link #imagePlaceholder} naming its blob key and type, in its place, so older turns keep
 * their text and the model still knows an image was there. Such a placeholder counts its length
 * toward {@code maxChars} instead of {@code imageCost}, and its blob is never read. A long session
 * so stays under a provider's image count and budget however many images it has seen.
 *
 * <p>Immutable and thread-safe; blob I/O happens in {@link #assemble} and nowhere else.
 */
public final class ContextAssembler {
  /** The default cost of one image, in characters. */
  public static final int DEFAULT_IMAGE_COST = 2000;
  /** The text that stands in for a turn whose only content was an image that could not be read. */
  public static final String IMAGE_UNAVAILABLE = "[image unavailable]";

  private static final System.Logger LOG = System.getLogger(ContextAssembler.class.getName());

  /** {@link #maxImages()} when every selected image is kept. */
  public static final int ALL_IMAGES = Integer.MAX_VALUE;

  private final BlobStore blobs;
  private final int imageCost;
  private final int maxImages;

  /**
   * @param blobs where image refs are resolved
   * @param imageCost characters one image counts for; at least 0
   */
  public ContextAssembler(BlobStore blobs, int imageCost) {
    this(blobs, imageCost, ALL_IMAGES);
  }

  private ContextAssembler(BlobStore blobs, int imageCost, int maxImages) {
    this.blobs = Objects.requireNonNull(blobs, "blobs");
    if (imageCost < 0) {
      throw new IllegalArgumentException("imageCost must be >= 0 but was " + imageCost);
    }
    if (maxImages < 0) {
      throw new IllegalArgumentException("maxImages must be >= 0 but was " + maxImages);
    }
    this.imageCost = imageCost;
    this.maxImages = maxImages;
  }

  public int imageCost() {
    return imageCost;
  }

  /** How many of the newest images stay images; {@link #ALL_IMAGES} by default. */
  public int maxImages() {
    return maxImages;
  }

  /**
   * This assembler keeping only the newest {@code maxImages} images (0: none; older ones become
   * placeholders, see the class comment).
   *
   * @throws IllegalArgumentException when {@code maxImages} is negative
   */
  public ContextAssembler withMaxImages(int maxImages) {
    return new ContextAssembler(blobs, imageCost, maxImages);
  }

  /** The text that stands in for an image left out by {@link #withMaxImages(int)}. */
  public static String imagePlaceholder(BlobKey key, int maxImages) {
    return "[image " + key + " (" + key.mediaType().mimeType() + ") left out: only the newest " + maxImages
        + (maxImages == 1 ? " image is" : " images are") + " kept]";
  }

  /**
   * The newest of {@code turns} (oldest first) that fit both limits, trimmed and resolved.
   *
   * @throws IllegalArgumentException when a limit is negative
   */
  public Conversation assemble(List<SessionTurn> turns, String systemPrompt, int maxTurns, int maxChars) {
    return resolve(systemPrompt, select(turns, systemPrompt, maxTurns, maxChars));
  }

  /** Steps 1 and 2; no I/O. The result is a new list. */
  List<SessionTurn> select(List<SessionTurn> turns, String systemPrompt, int maxTurns, int maxChars) {
    Objects.requireNonNull(systemPrompt, "systemPrompt");
    if (maxTurns < 0) {
      throw new IllegalArgumentException("maxTurns must be >= 0 but was " + maxTurns);
    }
    if (maxChars < 0) {
      throw new IllegalArgumentException("maxChars must be >= 0 but was " + maxChars);
    }
    long used = systemPrompt.length();
    int start = turns.size();
    int[] imagesLeft = {maxImages};
    while (start > 0 && turns.size() - start < maxTurns) {
      int before = imagesLeft[0];
      long cost = cost(turns.get(start - 1).parts(), imagesLeft);
      if (used + cost > maxChars) {
        imagesLeft[0] = before;
        break;
      }
      used += cost;
      start--;
    }
    List<SessionTurn> selected = trimToolChains(turns.subList(start, turns.size()));
    return maxImages == ALL_IMAGES ? selected : newestImagesOnly(selected);
  }

  long cost(List<SessionPart> parts) {
    return cost(parts, new int[] {ALL_IMAGES});
  }

  /**
   * The cost of a turn's parts walked newest first, as the walk of {@link #select} meets them;
   * {@code imagesLeft[0]} counts down the images that stay images (the others cost their placeholder).
   */
  private long cost(List<SessionPart> parts, int[] imagesLeft) {
    long cost = 0;
    for (int i = parts.size() - 1; i >= 0; i--) {
      SessionPart part = parts.get(i);
      if (part instanceof SessionPart.Text text) {
        cost += text.text().length();
      } else if (part instanceof SessionPart.ImageRef ref) {
        if (imagesLeft[0] > 0) {
          cost += imageCost;
          if (imagesLeft[0] != ALL_IMAGES) {
            imagesLeft[0]--;
          }
        } else {
          cost += imagePlaceholder(ref.key(), maxImages).length();
        }
      } else if (part instanceof SessionPart.ToolUse use) {
        cost += use.name().length() + use.input().size();
      } else if (part instanceof SessionPart.ToolResult result) {
        cost += cost(result.content(), imagesLeft);
      }
    }
    return cost;
  }

  /** The selection with every image older than the newest {@link #maxImages} made its placeholder. */
  private List<SessionTurn> newestImagesOnly(List<SessionTurn> selected) {
    int[] imagesLeft = {maxImages};
    List<SessionTurn> out = new ArrayList<>(selected);
    for (int t = out.size() - 1; t >= 0; t--) {
      SessionTurn turn = out.get(t);
      List<SessionPart> parts = newestImagesOnly(turn.parts(), imagesLeft);
      if (parts != turn.parts()) {
        out.set(t, new SessionTurn(turn.role(), turn.ts(), turn.user(), parts));
      }
    }
    return out;
  }

  /** {@code parts} with old images replaced, walked newest first; the same list when nothing changed. */
  private List<SessionPart> newestImagesOnly(List<SessionPart> parts, int[] imagesLeft) {
    List<SessionPart> out = null;
    for (int i = parts.size() - 1; i >= 0; i--) {
      SessionPart part = parts.get(i);
      SessionPart replaced = part;
      if (part instanceof SessionPart.ImageRef ref) {
        if (imagesLeft[0] > 0) {
          imagesLeft[0]--;
        } else {
          replaced = new SessionPart.Text(imagePlaceholder(ref.key(), maxImages));
        }
      } else if (part instanceof SessionPart.ToolResult result) {
        List<SessionPart> content = newestImagesOnly(result.content(), imagesLeft);
        if (content != result.content()) {
          replaced = new SessionPart.ToolResult(result.toolUseId(), content, result.isError());
        }
      }
      if (replaced != part) {
        if (out == null) {
          out = new ArrayList<>(parts);
        }
        out.set(i, replaced);
      }
    }
    return out == null ? parts : out;
  }

  private static List<SessionTurn> trimToolChains(List<SessionTurn> selected) {
    Set<String> uses = new HashSet<>();
    Set<String> results = new HashSet<>();
    for (SessionTurn turn : selected) {
      for (SessionPart part : turn.parts()) {
        if (part instanceof SessionPart.ToolUse use) {
          uses.add(use.id());
        } else if (part instanceof SessionPart.ToolResult result) {
          results.add(result.toolUseId());
        }
      }
    }
    List<SessionTurn> kept = new ArrayList<>(selected.size());
    for (SessionTurn turn : selected) {
      List<SessionPart> parts = new ArrayList<>(turn.parts().size());
      for (SessionPart part : turn.parts()) {
        boolean orphan = (part instanceof SessionPart.ToolUse use && !results.contains(use.id()))
            || (part instanceof SessionPart.ToolResult result && !uses.contains(result.toolUseId()));
        if (!orphan) {
          parts.add(part);
        }
      }
      if (parts.size() == turn.parts().size()) {
        kept.add(turn);
      } else if (!parts.isEmpty()) {
        kept.add(new SessionTurn(turn.role(), turn.ts(), turn.user(), parts));
      }
    }
    return kept;
  }

  /** Step 3: reads the images of {@code selected}. */
  Conversation resolve(String systemPrompt, List<SessionTurn> selected) {
    List<Turn> turns = new ArrayList<>(selected.size());
    for (SessionTurn turn : selected) {
      List<Part> parts = new ArrayList<>(turn.parts().size());
      for (SessionPart part : turn.parts()) {
        Part resolved = resolve(part);
        if (resolved != null) {
          parts.add(resolved);
        }
      }
      if (parts.isEmpty()) {
        parts.add(new Part.Text(IMAGE_UNAVAILABLE));
      }
      turns.add(new Turn(turn.role(), parts));
    }
    return new Conversation(systemPrompt, turns);
  }

  private Part resolve(SessionPart part) {
    if (part instanceof SessionPart.Text text) {
      return new Part.Text(text.text());
    } else if (part instanceof SessionPart.ImageRef ref) {
      return image(ref);
    } else if (part instanceof SessionPart.ToolUse use) {
      return new Part.ToolUse(use.id(), use.name(), use.input());
    } else if (part instanceof SessionPart.ToolResult result) {
      List<Part> content = new ArrayList<>(result.content().size());
      for (SessionPart inner : result.content()) {
        Part resolved = resolve(inner);
        if (resolved != null) {
          content.add(resolved);
        }
      }
      return new Part.ToolResult(result.toolUseId(), content, result.isError());
    }
    throw new AssertionError("unknown part " + part);
  }

  private Part.Image image(SessionPart.ImageRef ref) {
    try {
      return new Part.Image(ref.mediaType(), ImageData.ofBytes(blobs.get(ref.key())));
    } catch (NoSuchFileException e) {
      LOG.log(Level.WARNING, "blob {0} is missing; the image is left out of the context", ref.key());
    } catch (BlobCorruptedException e) {
      LOG.log(Level.WARNING, "blob {0} is corrupt; the image is left out of the context", ref.key());
    } catch (IOException e) {
      LOG.log(Level.WARNING, "blob " + ref.key() + " could not be read; the image is left out of the context", e);
    }
    return null;
  }
}
