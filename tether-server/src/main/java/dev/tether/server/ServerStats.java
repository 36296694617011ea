package dev.tether.server;

/**
 * What a {@link TetherServer} holds at one moment, for gauges and load reports. Immutable; each
 * field is read on its own, so the snapshot is not atomic across fields.
 *
 * @param waits long-polls waiting now (streams not included)
 * @param streams NDJSON streams open now
 * @param ingressBytes request body bytes reserved in the ingress budget now
 * @param ingressMaxBytes the ingress budget
 * @param egressBytes answer bytes reserved in the egress budget now
 * @param egressMaxBytes the egress budget
 */
public record ServerStats(int waits, int streams, long ingressBytes, long ingressMaxBytes, long egressBytes,
    long egressMaxBytes) {}
