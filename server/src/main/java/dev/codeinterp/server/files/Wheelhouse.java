package dev.codeinterp.server.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The deployer's directory of Python wheels that local mode may load in the browser. Only regular
 * files directly in the directory whose names look like wheels are ever listed or opened: no
 * subdirectories, no symlinks, no other files, no name that could climb out.
 *
 * <p>Each wheel is listed with the top-level modules it provides (its {@code top_level.txt}, or the
 * first path segments of its entries), so the browser knows which wheel an {@code import} needs
 * without downloading them all. That is read once per file version.
 */
public final class Wheelhouse {
    /** Wheel file names (PEP 427): distribution, version, tags; letters, digits and {@code . _ + ! -}. */
    private static final Pattern WHEEL_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+!-]{0,200}\\.whl");
    private static final Pattern MODULE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final Path dir;
    private final Map<String, Listed> cache = new ConcurrentHashMap<>();

    /** One wheel as the browser sees it. */
    public record Wheel(String file, long size, List<String> imports) {
    }

    private record Listed(long size, long modified, Wheel wheel) {
    }

    public Wheelhouse(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    /** The wheels, by file name; an absent directory is an empty wheelhouse. */
    public List<Wheel> list() {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Wheel> wheels = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (!WHEEL_NAME.matcher(name).matches()) {
                    continue;
                }
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (NoSuchFileException gone) {
                    continue;
                }
                if (attributes.isRegularFile()) {
                    wheels.add(describe(entry, name, attributes));
                }
            }
        } catch (IOException e) {
            return List.of(); // unreadable: nothing to offer, as if absent
        }
        wheels.sort(Comparator.comparing(Wheel::file));
        return wheels;
    }

    /** The path of a listed wheel, or empty for anything else (other names, links, directories). */
    public Optional<Path> find(String file) {
        if (file == null || !WHEEL_NAME.matcher(file).matches() || file.contains("..")) {
            return Optional.empty();
        }
        Path path = dir.resolve(file).normalize();
        if (!dir.equals(path.getParent()) || !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        return Optional.of(path);
    }

    private Wheel describe(Path path, String name, BasicFileAttributes attributes) {
        long size = attributes.size();
        long modified = attributes.lastModifiedTime().toMillis();
        Listed known = cache.get(name);
        if (known != null && known.size() == size && known.modified() == modified) {
            return known.wheel();
        }
        Wheel wheel = new Wheel(name, size, topLevelModules(path));
        cache.put(name, new Listed(size, modified, wheel));
        return wheel;
    }

    /** The importable top-level names a wheel installs; empty if it is not a readable zip. */
    static List<String> topLevelModules(Path wheel) {
        TreeSet<String> fromEntries = new TreeSet<>();
        try (ZipFile zip = new ZipFile(wheel.toFile())) {
            var entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                String entryName = entry.getName();
                int slash = entryName.indexOf('/');
                String first = slash < 0 ? entryName : entryName.substring(0, slash);
                if (first.endsWith(".dist-info") && entryName.equals(first + "/top_level.txt")) {
                    List<String> declared = new String(zip.getInputStream(entry).readNBytes(64 << 10), StandardCharsets.UTF_8)
                            .lines().map(String::strip).filter(line -> MODULE_NAME.matcher(line).matches()).toList();
                    if (!declared.isEmpty()) {
                        return List.copyOf(new TreeSet<>(declared));
                    }
                }
                if (first.endsWith(".dist-info") || first.endsWith(".data")) {
                    continue;
                }
                // a package directory, a module file (x.py) or an extension module (x.cpython-314-wasm32.so)
                String module = slash < 0 ? first.split("\\.", 2)[0] : first;
                if (MODULE_NAME.matcher(module).matches()) {
                    fromEntries.add(module);
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return List.copyOf(fromEntries);
    }
}
