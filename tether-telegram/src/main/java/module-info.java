/** A Telegram bot bridge to a tether host: text and photos both ways. */
module dev.tether.telegram {
  requires transitive dev.tether.client;
  requires dev.tether.images;
  requires dev.tether.media;
  requires dev.tether.chat;
  requires com.fasterxml.jackson.databind;
  requires java.net.http;

  exports dev.tether.telegram;
  // The Bot API's wire records are read and written by Jackson's data binding.
  opens dev.tether.telegram.internal to com.fasterxml.jackson.databind;
}
