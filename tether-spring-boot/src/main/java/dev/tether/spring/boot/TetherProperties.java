package dev.tether.spring.boot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code tether.*} settings. With none set, an application gets a bounded in-memory store and
 * an in-process client, and no server. Every default here is the library's own default; a value
 * left unset is not passed to the library at all.
 */
@ConfigurationProperties("tether")
public class TetherProperties {
  /** The instance the application talks to by default (sends and polls). */
  private String instance = "default";
  private final Store store = new Store();
  private final Client client = new Client();
  private final Server server = new Server();

  public String getInstance() {
    return instance;
  }

  public void setInstance(String instance) {
    this.instance = instance;
  }

  public Store getStore() {
    return store;
  }

  public Client getClient() {
    return client;
  }

  public Server getServer() {
    return server;
  }

  /** Which store holds the frames. */
  public enum StoreType {
    /** A bounded in-memory ring per instance (tether-store). */
    MEMORY,
    /** The memory ring over a SQLite journal in a data directory (tether-store-sqlite). */
    SQLITE,
    /** NATS JetStream, shared by many hosts (tether-store-jetstream). */
    JETSTREAM
  }

  /** How the application's {@code TetherClient} reaches the frames. */
  public enum ClientMode {
    /** Appends to and waits on this application's store, with no network hop. */
    IN_PROCESS,
    /** The HTTP API of a remote daemon ({@code tether serve}, tether-client-http). */
    HTTP
  }

  /** {@code tether.store.*}. */
  public static class Store {
    /** Which store: memory, sqlite or jetstream. */
    private StoreType type = StoreType.MEMORY;
    /** Bytes all instances together may hold in memory; unset: the store's default bound. */
    private Long maxTotalBytes;
    /** Instances the store keeps at once; unset: the store's default. */
    private Integer maxInstances;
    private final Retention retention = new Retention();
    private final Sqlite sqlite = new Sqlite();
    private final Jetstream jetstream = new Jetstream();

    public StoreType getType() {
      return type;
    }

    public void setType(StoreType type) {
      this.type = type;
    }

    public Long getMaxTotalBytes() {
      return maxTotalBytes;
    }

    public void setMaxTotalBytes(Long maxTotalBytes) {
      this.maxTotalBytes = maxTotalBytes;
    }

    public Integer getMaxInstances() {
      return maxInstances;
    }

    public void setMaxInstances(Integer maxInstances) {
      this.maxInstances = maxInstances;
    }

    public Retention getRetention() {
      return retention;
    }

    public Sqlite getSqlite() {
      return sqlite;
    }

    public Jetstream getJetstream() {
      return jetstream;
    }
  }

  /** {@code tether.store.retention.*}: what each instance's ring keeps. */
  public static class Retention {
    /** Frames kept per instance (newest first); unset: 1000. */
    private Integer maxFrames;
    /** Bytes kept per instance; unset: 128 MiB. */
    private Long maxBytes;
    /** Whether streaming deltas are kept in the ring too. */
    private boolean deltasInRing;

    public Integer getMaxFrames() {
      return maxFrames;
    }

    public void setMaxFrames(Integer maxFrames) {
      this.maxFrames = maxFrames;
    }

    public Long getMaxBytes() {
      return maxBytes;
    }

    public void setMaxBytes(Long maxBytes) {
      this.maxBytes = maxBytes;
    }

    public boolean isDeltasInRing() {
      return deltasInRing;
    }

    public void setDeltasInRing(boolean deltasInRing) {
      this.deltasInRing = deltasInRing;
    }
  }

  /** {@code tether.store.sqlite.*}. */
  public static class Sqlite {
    /** The data directory; the journal is journal.db in it. Required for the sqlite store. */
    private Path dataDir;

    public Path getDataDir() {
      return dataDir;
    }

    public void setDataDir(Path dataDir) {
      this.dataDir = dataDir;
    }
  }

  /** {@code tether.store.jetstream.*}. */
  public static class Jetstream {
    /** NATS server URLs (nats://host:4222, tls://...); required for the jetstream store. */
    private List<String> servers = new ArrayList<>();
    /** A NATS credentials file (JWT and NKey seed), as nsc writes it. */
    private Path credentialsFile;
    /** A file holding the NATS server's authentication token (never the token itself in properties). */
    private Path tokenFile;
    /** Stream replicas; unset: from the cluster size. */
    private Integer replicas;
    /** TLS with the JVM's default trust store for nats:// URLs (tls:// implies it). */
    private boolean tls;
    /** The prefix of every subject and stream name. */
    private String subjectPrefix = "tether";

    public List<String> getServers() {
      return servers;
    }

    public void setServers(List<String> servers) {
      this.servers = servers;
    }

    public Path getCredentialsFile() {
      return credentialsFile;
    }

    public void setCredentialsFile(Path credentialsFile) {
      this.credentialsFile = credentialsFile;
    }

    public Path getTokenFile() {
      return tokenFile;
    }

    public void setTokenFile(Path tokenFile) {
      this.tokenFile = tokenFile;
    }

    public Integer getReplicas() {
      return replicas;
    }

    public void setReplicas(Integer replicas) {
      this.replicas = replicas;
    }

    public boolean isTls() {
      return tls;
    }

    public void setTls(boolean tls) {
      this.tls = tls;
    }

    public String getSubjectPrefix() {
      return subjectPrefix;
    }

    public void setSubjectPrefix(String subjectPrefix) {
      this.subjectPrefix = subjectPrefix;
    }
  }

  /** {@code tether.client.*}. */
  public static class Client {
    /** in-process (over this application's store) or http (a remote daemon). */
    private ClientMode mode = ClientMode.IN_PROCESS;
    /** The daemon's address for http mode: unix:/path, a path, http://host:port or host:port. */
    private String address;
    /** The file holding the daemon's bearer token (http mode over TCP); read at start. */
    private Path tokenFile;
    /** http mode: send inline images as blob refs (uploaded once) instead of base64 in each frame. */
    private boolean blobImages;

    public ClientMode getMode() {
      return mode;
    }

    public void setMode(ClientMode mode) {
      this.mode = mode;
    }

    public String getAddress() {
      return address;
    }

    public void setAddress(String address) {
      this.address = address;
    }

    public Path getTokenFile() {
      return tokenFile;
    }

    public void setTokenFile(Path tokenFile) {
      this.tokenFile = tokenFile;
    }

    public boolean isBlobImages() {
      return blobImages;
    }

    public void setBlobImages(boolean blobImages) {
      this.blobImages = blobImages;
    }
  }

  /** {@code tether.server.*}: the embedded daemon (needs tether-server on the classpath). */
  public static class Server {
    /** Serve tether's HTTP API from this application, over the configured store. */
    private boolean enabled;
    /** Where the API listens: unix:/path, a path, or 127.0.0.1:port (0: any free port); unset: the default socket. */
    private String listen;
    /** The bearer token file for a TCP listener; created 0600 with a random token when missing. */
    private Path tokenFile;
    /** Instances registered at start; unset: the one instance default. */
    private List<String> instances = new ArrayList<>();
    /** Register an unknown instance on first use instead of answering 404. */
    private boolean autoCreate;
    /** Allow a TCP listener on an address that is not loopback (the API has no TLS). */
    private boolean allowNonLoopback;
    /** Request body bytes in flight at once; unset: the server's default for this heap. */
    private Long ingressBytes;
    /** Response bytes in flight at once; unset: the server's default for this heap. */
    private Long egressBytes;
    /** Long-polls and streams held at once; unset: the server's default. */
    private Integer maxWaits;
    /** Open connections across the listeners; unset: 4096. */
    private Integer maxConnections;
    /** HTTP worker threads; unset: 32. */
    private Integer maxThreads;
    /** Disk bytes (attachments, blobs) per instance; 0: no budget; unset: 256 MiB. */
    private Long instanceDiskBytes;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public String getListen() {
      return listen;
    }

    public void setListen(String listen) {
      this.listen = listen;
    }

    public Path getTokenFile() {
      return tokenFile;
    }

    public void setTokenFile(Path tokenFile) {
      this.tokenFile = tokenFile;
    }

    public List<String> getInstances() {
      return instances;
    }

    public void setInstances(List<String> instances) {
      this.instances = instances;
    }

    public boolean isAutoCreate() {
      return autoCreate;
    }

    public void setAutoCreate(boolean autoCreate) {
      this.autoCreate = autoCreate;
    }

    public boolean isAllowNonLoopback() {
      return allowNonLoopback;
    }

    public void setAllowNonLoopback(boolean allowNonLoopback) {
      this.allowNonLoopback = allowNonLoopback;
    }

    public Long getIngressBytes() {
      return ingressBytes;
    }

    public void setIngressBytes(Long ingressBytes) {
      this.ingressBytes = ingressBytes;
    }

    public Long getEgressBytes() {
      return egressBytes;
    }

    public void setEgressBytes(Long egressBytes) {
      this.egressBytes = egressBytes;
    }

    public Integer getMaxWaits() {
      return maxWaits;
    }

    public void setMaxWaits(Integer maxWaits) {
      this.maxWaits = maxWaits;
    }

    public Integer getMaxConnections() {
      return maxConnections;
    }

    public void setMaxConnections(Integer maxConnections) {
      this.maxConnections = maxConnections;
    }

    public Integer getMaxThreads() {
      return maxThreads;
    }

    public void setMaxThreads(Integer maxThreads) {
      this.maxThreads = maxThreads;
    }

    public Long getInstanceDiskBytes() {
      return instanceDiskBytes;
    }

    public void setInstanceDiskBytes(Long instanceDiskBytes) {
      this.instanceDiskBytes = instanceDiskBytes;
    }
  }
}
