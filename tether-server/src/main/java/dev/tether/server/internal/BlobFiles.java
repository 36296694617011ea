package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.ImageRefs;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.images.Images;
import dev.tether.sessions.ConfinedDirectory;
import dev.tether.sessions.UnsafeFileException;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Reads blobs from an instance's blob directory ({@code {workspace}/.aegis/blobs}) as untrusted
 * input: the workspace is shared with the agent's VM, so whatever is there may have been put there
 * by the guest.
 *
 * <p>Every read checks, in order: the key is a blob key for the media type (so the path is always
 * {@code dir/<key>}, no traversal); {@code .aegis}, {@code blobs} and the blob are opened through
 * one {@link ConfinedDirectory} (each relative to its opened parent, never following a link, so a
 * guest swapping a directory for a link mid-read cannot redirect it), and the blob is a regular
 * file; its size, taken from the open file, is within the per-image limit and equal
 * to the declared size when there is one; its SHA-256 is the key's; its first bytes are the
 * declared type's signature. Failures are {@link TetherException}s naming the image:
 * {@code INVALID_BLOB_REF}, {@code BLOB_NOT_FOUND}, {@code IMAGE_TOO_LARGE},
 * {@code BLOB_CORRUPTED}, {@code MEDIA_TYPE_MISMATCH}. Stateless and thread-safe.
 */
public final class BlobFiles {
  static final String AEGIS = ".aegis";
  static final String BLOBS = "blobs";

  private BlobFiles() {}

  /** The verified bytes of {@code ref} in the blob directory of {@code workspace}. */
  public static byte[] read(Path workspace, ImageRefs.Ref ref, Limits limits) throws IOException {
    byte[] bytes;
    try (ConfinedDirectory.OpenFile file = openForRead(workspace, ref, limits)) {
      try {
        bytes = file.readAll();
      } catch (FileSystemException e) {
        int i = ref.index();
        throw TetherException.forImage(ErrorCode.BLOB_CORRUPTED, i, "image " + i + ": blob " + ref.key() + " changed size while being read");
      }
    }
    verify(ref, bytes, limits);
    return bytes;
  }

  /**
   * Opens the blob {@code ref} of {@code workspace} with the checks that come before its bytes:
   * the key is a blob key for the media type; {@code .aegis}, {@code blobs} and the blob are
   * opened through one {@link ConfinedDirectory}; the blob is a regular file whose size, taken
   * from the open file, is within the per-image limit and the declared size when there is one.
   * The caller reads {@link ConfinedDirectory.OpenFile#size()} bytes, {@link #verify}s them and
   * closes the file. The one place a workspace blob is opened, for {@link #read} and downloads.
   */
  static ConfinedDirectory.OpenFile openForRead(Path workspace, ImageRefs.Ref ref, Limits limits) throws IOException {
    int i = ref.index();
    if (!ImageRefs.isKeyFor(ref.key(), ref.mediaType())) {
      throw TetherException.forImage(ErrorCode.INVALID_BLOB_REF, i, "image " + i + ": '" + ref.key() + "' is not a blob key for " + ref.mediaType().mimeType());
    }
    try (ConfinedDirectory ws = ConfinedDirectory.open(workspace);
        ConfinedDirectory dir = blobDirectory(ws, false)) {
      ConfinedDirectory.OpenFile file = dir.openFile(ref.key());
      long size = file.size();
      if (size > limits.maxImageBytes() || (ref.size() >= 0 && ref.size() != size)) {
        file.close();
        throw size > limits.maxImageBytes()
            ? TetherException.forImage(ErrorCode.IMAGE_TOO_LARGE, i, "image " + i + " is " + size + " bytes, over the limit of " + limits.maxImageBytes())
            : TetherException.forImage(ErrorCode.INVALID_BLOB_REF, i, "image " + i + " declares size " + ref.size()
                + " but blob " + ref.key() + " is " + size + " bytes");
      }
      return file;
    } catch (NoSuchFileException e) {
      throw TetherException.forImage(ErrorCode.BLOB_NOT_FOUND, i, "image " + i + " names blob " + ref.key()
          + ", which is not in this instance's blob store; upload it first (POST /v1/instances/{id}/blob)");
    } catch (UnsafeFileException e) {
      throw TetherException.forImage(ErrorCode.INVALID_BLOB_REF, i, "image " + i + ": blob " + ref.key() + " cannot be read: "
          + e.describe() + " in the workspace; blobs must be plain files in plain directories");
    }
  }

  /**
   * The blob directory ({@code .aegis/blobs}) below an opened workspace, each component opened
   * without following links; created 0700 when {@code create}, else {@link NoSuchFileException}
   * when missing. The caller closes it.
   */
  static ConfinedDirectory blobDirectory(ConfinedDirectory workspace, boolean create) throws IOException {
    try (ConfinedDirectory aegis = create ? workspace.createDirectory(AEGIS) : workspace.directory(AEGIS)) {
      return create ? aegis.createDirectory(BLOBS) : aegis.directory(BLOBS);
    }
  }

  /**
   * Checks blob bytes from anywhere (a workspace, the shared blobs) as untrusted: within the
   * per-image limit, of the declared size when there is one, hashing to the key, with the media
   * type's signature.
   */
  static void verify(ImageRefs.Ref ref, byte[] bytes, Limits limits) {
    int i = ref.index();
    if (bytes.length > limits.maxImageBytes()) {
      throw TetherException.forImage(ErrorCode.IMAGE_TOO_LARGE, i, "image " + i + " is " + bytes.length + " bytes, over the limit of " + limits.maxImageBytes());
    }
    if (ref.size() >= 0 && ref.size() != bytes.length) {
      throw TetherException.forImage(ErrorCode.INVALID_BLOB_REF, i, "image " + i + " declares size " + ref.size()
          + " but blob " + ref.key() + " is " + bytes.length + " bytes");
    }
    if (!ref.key().startsWith(sha256Hex(bytes))) {
      throw TetherException.forImage(ErrorCode.BLOB_CORRUPTED, i, "image " + i + ": the bytes of blob " + ref.key()
          + " do not hash to its name; store blobs under the SHA-256 of their bytes");
    }
    Images.requireImage(ref.mediaType(), bytes.length, bytes, Math.min(bytes.length, 16), i, limits);
  }

  static String sha256Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /** The media type a key's extension names. */
  static MediaType mediaTypeOf(String key) {
    return MediaType.forExtension(key.substring(key.lastIndexOf('.') + 1)).orElseThrow();
  }
}
