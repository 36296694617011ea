package dev.tether.server;

import dev.tether.api.ImageRefs;
import dev.tether.api.Limits;
import dev.tether.server.internal.BlobFiles;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Blobs in an instance workspace ({@code {workspace}/.aegis/blobs/{sha256}.{ext}}, the reference
 * clients' layout), read as the daemon reads them: as untrusted input.
 */
public final class WorkspaceBlobs {
  private WorkspaceBlobs() {}

  /**
   * A reader of the verified blobs of {@code workspace}: a key that is not a blob key for its media
   * type, a symbolic link anywhere below the workspace, a size over {@code limits} or unlike the
   * declared one, bytes that do not hash to the key or lack the type's signature all fail with a
   * {@link dev.tether.api.TetherException} naming the image. Stateless and thread-safe.
   */
  public static ImageRefs.BlobReader reader(Path workspace, Limits limits) {
    Objects.requireNonNull(workspace, "workspace");
    Objects.requireNonNull(limits, "limits");
    return ref -> BlobFiles.read(workspace, ref, limits);
  }
}
