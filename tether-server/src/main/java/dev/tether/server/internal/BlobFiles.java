package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.ImageRefs;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.images.Images;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Reads blobs from an instance's blob directory ({@code {workspace}/.aegis/blobs}) as untrusted
 * input: the workspace is shared with the agent's VM, so whatever is there may have been put there
 * by the guest.
 *
 * <p>Every read checks, in order: the key is a blob key for the media type (so the path is always
 * {@code dir/<key>}, no traversal); neither {@code .aegis} nor {@code blobs} nor the blob is a
 * symbolic link, and the blob is a regular file; its size is within the per-image limit and equal
 * to the declared size when there is one; its SHA-256 is the key's; its first bytes are the
 * declared type's signature. Failures are {@link TetherException}s naming the image:
 * {@code INVALID_BLOB_REF}, {@code BLOB_NOT_FOUND}, {@code IMAGE_TOO_LARGE},
 * {@code BLOB_CORRUPTED}, {@code MEDIA_TYPE_MISMATCH}. Stateless and thread-safe.
 */
public final class BlobFiles {
  private BlobFiles() {}

  /** The blob directory of a workspace. */
  static Path blobDir(Path workspace) {
    return workspace.resolve(".aegis").resolve("blobs");
  }

  /** The verified bytes of {@code ref} in the blob directory of {@code workspace}. */
  public static byte[] read(Path workspace, ImageRefs.Ref ref, Limits limits) throws IOException {
    int i = ref.index();
    if (!ImageRefs.isKeyFor(ref.key(), ref.mediaType())) {
      throw TetherException.forImage(ErrorCode.INVALID_BLOB_REF, i, "image " + i + ": '" + ref.key() + "' is not a blob key for " + ref.mediaType().mimeType());
    }
    requireNotLink(workspace.resolve(".aegis"), i);
    requireNotLink(blobDir(workspace), i);
    Path path = blobDir(workspace).resolve(ref.key());
    BasicFileAttributes attrs;
    try {
      attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      throw TetherException.forImage(ErrorCode.BLOB_NOT_FOUND, i, "image " + i + " names blob " + ref.key()
          + ", which is not in this instance's blob store; upload it first (POST /v1/instances/{id}/blob)");
    }
    if (attrs.isSymbolicLink() || !attrs.isRegularFile()) {
      throw TetherException.forImage(ErrorCode.INVALID_BLOB_REF, i, "image " + i + ": blob " + ref.key()
          + " is " + (attrs.isSymbolicLink() ? "a symbolic link" : "not a regular file") + "; blobs must be plain files");
    }
    long size = attrs.size();
    if (size > limits.maxImageBytes()) {
      throw TetherException.forImage(ErrorCode.IMAGE_TOO_LARGE, i, "image " + i + " is " + size + " bytes, over the limit of " + limits.maxImageBytes());
    }
    if (ref.size() >= 0 && ref.size() != size) {
      throw TetherException.forImage(ErrorCode.INVALID_BLOB_REF, i, "image " + i + " declares size " + ref.size()
          + " but blob " + ref.key() + " is " + size + " bytes");
    }
    byte[] bytes = new byte[(int) size];
    try (SeekableByteChannel ch = Files.newByteChannel(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      ByteBuffer buf = ByteBuffer.wrap(bytes);
      while (buf.hasRemaining() && ch.read(buf) >= 0) {
        // keep reading
      }
      if (buf.hasRemaining() || ch.read(ByteBuffer.allocate(1)) > 0) {
        throw TetherException.forImage(ErrorCode.BLOB_CORRUPTED, i, "image " + i + ": blob " + ref.key() + " changed size while being read");
      }
    }
    verify(ref, bytes, limits);
    return bytes;
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

  private static void requireNotLink(Path dir, int index) throws IOException {
    if (Files.isSymbolicLink(dir)) {
      throw TetherException.forImage(ErrorCode.INVALID_BLOB_REF, index, dir.getFileName() + " in the workspace is a symbolic link; the blob directory must be a plain directory");
    }
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

  /** A blob file opened for reading, positioned at its start; its size is the open file's. The caller closes it. */
  record Opened(SeekableByteChannel channel, long size) {}

  /**
   * Opens the blob {@code ref} of {@code workspace} for a download, with the checks of
   * {@link #read} that come before the bytes (key, no link, regular file, size within the image
   * limit); the caller reads {@link Opened#size()} bytes and {@link #verify}s them. The one place
   * a blob download opens a file.
   */
  static Opened openForRead(Path workspace, ImageRefs.Ref ref, Limits limits) throws IOException {
    int i = ref.index();
    if (!ImageRefs.isKeyFor(ref.key(), ref.mediaType())) {
      throw TetherException.forImage(ErrorCode.INVALID_BLOB_REF, i, "image " + i + ": '" + ref.key() + "' is not a blob key for " + ref.mediaType().mimeType());
    }
    requireNotLink(workspace.resolve(".aegis"), i);
    requireNotLink(blobDir(workspace), i);
    Path path = blobDir(workspace).resolve(ref.key());
    BasicFileAttributes attrs;
    try {
      attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      throw TetherException.forImage(ErrorCode.BLOB_NOT_FOUND, i, "image " + i + " names blob " + ref.key()
          + ", which is not in this instance's blob store; upload it first (POST /v1/instances/{id}/blob)");
    }
    if (attrs.isSymbolicLink() || !attrs.isRegularFile()) { // checked before opening: opening a FIFO blocks
      throw TetherException.forImage(ErrorCode.INVALID_BLOB_REF, i, "image " + i + ": blob " + ref.key()
          + " is " + (attrs.isSymbolicLink() ? "a symbolic link" : "not a regular file") + "; blobs must be plain files");
    }
    SeekableByteChannel ch = Files.newByteChannel(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    long size = ch.size();
    if (size > limits.maxImageBytes()) {
      ch.close();
      throw TetherException.forImage(ErrorCode.IMAGE_TOO_LARGE, i, "image " + i + " is " + size + " bytes, over the limit of " + limits.maxImageBytes());
    }
    return new Opened(ch, size);
  }
}
