/** Frame store, durable journal and conversation sessions. */
package dev.tether.store;
