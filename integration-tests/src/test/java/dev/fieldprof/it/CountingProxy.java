package dev.fieldprof.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on a loopback port that forwards every connection to one broker address and counts
 * the connections it accepted: given to a Kafka client as its bootstrap address, it shows whether
 * (and how often) the client contacted the broker at all, since every client's first connection is
 * to a bootstrap address.
 */
final class CountingProxy implements AutoCloseable {
    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final AtomicInteger accepted = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    /**
     * @param target host:port the connections go to
     */
    CountingProxy(String target) throws IOException {
        int colon = target.lastIndexOf(':');
        this.targetHost = target.substring(0, colon);
        this.targetPort = Integer.parseInt(target.substring(colon + 1));
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "counting-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The proxy's own address, host:port, for a client's bootstrap servers. */
    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** Connections accepted so far. */
    int accepted() {
        return accepted.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                accepted.incrementAndGet();
                Socket broker = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(broker);
                pump(client, broker);
                pump(broker, client);
            } catch (IOException e) {
                if (server.isClosed()) {
                    return;
                }
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        Thread t =
                new Thread(
                        () -> {
                            try (InputStream in = from.getInputStream();
                                    OutputStream out = to.getOutputStream()) {
                                in.transferTo(out);
                            } catch (IOException e) {
                                // one side closed: the other goes with it
                            }
                            try {
                                from.close();
                                to.close();
                            } catch (IOException ignored) {
                                // closing
                            }
                        },
                        "counting-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
