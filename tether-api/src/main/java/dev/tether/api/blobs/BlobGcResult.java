package dev.tether.api.blobs;

/**
 * What one garbage collection of a blob store removed.
 *
 * @param deletedBlobs unreferenced blobs older than the grace period that were deleted
 * @param freedBytes their total size
 * @param deletedTempFiles abandoned temp files (from a put interrupted by a crash) older than the grace period
 * @param keptBlobs blobs looked at and kept (referenced, or still within the grace period)
 */
public record BlobGcResult(int deletedBlobs, long freedBytes, int deletedTempFiles, int keptBlobs) {}
