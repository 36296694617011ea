package dev.tether.examples.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application with tether-spring-boot-starter and nothing else of tether's: POST an
 * image to {@code /ask} and the agent behind tether answers. Run it, then:
 * {@code curl -F image=@chart.png -F question='What is this?' localhost:8080/ask}.
 */
@SpringBootApplication
public class ImageAskApplication {
  public static void main(String[] args) {
    SpringApplication.run(ImageAskApplication.class, args);
  }
}
