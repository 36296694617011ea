/** The agent side of the coven gRPC protocol, bridged to any tether agent through a {@code TetherClient}. */
module dev.tether.coven {
  requires transitive dev.tether.client;
  requires dev.tether.images;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;
  requires com.google.protobuf;
  requires io.grpc;
  requires io.grpc.stub;
  requires io.grpc.protobuf;
  requires org.bouncycastle.provider;

  exports dev.tether.coven;
  // Generated protobuf messages are read reflectively by the protobuf runtime.
  opens dev.tether.coven.internal.proto to com.google.protobuf;
}
