package dev.flowform.cli;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What {@code deploy/} assumes about the container image, checked against the image: its tags, its user, its
 * entrypoint, working directory and the folders the launcher runs from. The image is read either from its build
 * definition (the Jib configuration of the {@code image} profile in {@code pom.xml}, and the user
 * {@code src/image/rootfs.sh} writes into {@code /etc/passwd}) or from the built {@code target/flowform-image.tar}
 * ({@code docker save} layout: {@code manifest.json} and the config JSON).
 */
final class DeployImageCheck {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern PASSWD = Pattern.compile("flowform:x:([0-9]+):([0-9]+):[^:]*:([^:]+):");

    private DeployImageCheck() {
    }

    /**
     * The image as {@code deploy/} sees it.
     *
     * @param tags        the names it is loaded or pushed under, e.g. {@code flowform:0.1.0}
     * @param user        {@code uid:gid}
     * @param entrypoint  the entrypoint
     * @param workingDir  the working directory
     * @param env         the environment it sets
     * @param home        the home folder of its user ({@code /etc/passwd})
     */
    record ImageSpec(List<String> tags, String user, List<String> entrypoint, String workingDir, Map<String, String> env,
                     String home) {

        /** @return the user id */
        long uid() {
            return Long.parseLong(user.substring(0, user.indexOf(':')));
        }

        /** @return the group id */
        long gid() {
            return Long.parseLong(user.substring(user.indexOf(':') + 1));
        }

        /** @return the folders the launcher and its Java run from: the launcher's installation, JAVA_HOME, PATH */
        List<String> runtimeFolders() {
            List<String> out = new ArrayList<>();
            String launcher = entrypoint.get(0);
            out.add(launcher.substring(0, launcher.lastIndexOf("/bin/")));
            out.add(env.get("JAVA_HOME"));
            out.addAll(List.of(env.getOrDefault("PATH", "").split(":")));
            out.removeIf(f -> f == null || f.isEmpty());
            return out;
        }
    }

    /**
     * @param pom    the build's {@code pom.xml}
     * @param rootfs {@code src/image/rootfs.sh}
     * @return the image the build defines
     */
    static ImageSpec fromBuild(Path pom, Path rootfs) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document doc = f.newDocumentBuilder().parse(pom.toFile());
        Element project = doc.getDocumentElement();
        String version = child(project, "version").getTextContent().trim();
        Element jib = null;
        for (Element profile : children(child(project, "profiles"), "profile")) {
            if ("image".equals(child(profile, "id").getTextContent().trim())) {
                for (Element plugin : children(child(child(profile, "build"), "plugins"), "plugin")) {
                    if ("jib-maven-plugin".equals(child(plugin, "artifactId").getTextContent().trim())) {
                        jib = child(plugin, "configuration");
                    }
                }
            }
        }
        Objects.requireNonNull(jib, "no jib-maven-plugin in the image profile of " + pom);
        Element to = child(jib, "to");
        List<String> tags = new ArrayList<>();
        String image = child(to, "image").getTextContent().trim().replace("${project.version}", version);
        tags.add(image);
        Element extra = optionalChild(to, "tags");
        if (extra != null) {
            String repo = image.substring(0, image.lastIndexOf(':'));
            children(extra, "tag").forEach(t -> tags.add(repo + ":" + t.getTextContent().trim().replace("${project.version}",
                    version)));
        }
        Element container = child(jib, "container");
        List<String> entrypoint = children(child(container, "entrypoint"), "arg").stream()
                .map(e -> e.getTextContent().trim()).toList();
        Map<String, String> env = new LinkedHashMap<>();
        for (Element e : children(child(container, "environment"), null)) {
            env.put(e.getTagName(), e.getTextContent().trim());
        }
        Matcher passwd = PASSWD.matcher(Files.readString(rootfs));
        if (!passwd.find()) {
            throw new IllegalStateException(rootfs + " writes no /etc/passwd line for the user flowform");
        }
        String user = child(container, "user").getTextContent().trim();
        if (!user.equals(passwd.group(1) + ":" + passwd.group(2))) {
            throw new IllegalStateException("Jib's user " + user + " is not the flowform user of " + rootfs + " ("
                    + passwd.group(1) + ":" + passwd.group(2) + ")");
        }
        return new ImageSpec(tags, user, entrypoint, child(container, "workingDirectory").getTextContent().trim(), env,
                passwd.group(3));
    }

    /**
     * @param tar the image tar Jib built
     * @return the image as built
     */
    static ImageSpec fromTar(Path tar) throws IOException {
        Map<String, byte[]> top = new LinkedHashMap<>();
        String passwd = null;
        try (TarArchiveInputStream in = new TarArchiveInputStream(new BufferedInputStream(Files.newInputStream(tar)))) {
            for (TarArchiveEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                if (e.getName().endsWith(".tar.gz")) {
                    passwd = Optional.ofNullable(passwd(in)).orElse(passwd);
                } else {
                    top.put(e.getName(), in.readAllBytes());
                }
            }
        }
        JsonNode manifest = JSON.readTree(top.get("manifest.json")).get(0);
        JsonNode config = JSON.readTree(top.get(manifest.get("Config").asString())).get("config");
        List<String> tags = new ArrayList<>();
        manifest.get("RepoTags").forEach(t -> tags.add(t.asString()));
        List<String> entrypoint = new ArrayList<>();
        config.get("Entrypoint").forEach(a -> entrypoint.add(a.asString()));
        Map<String, String> env = new LinkedHashMap<>();
        config.get("Env").forEach(e -> env.put(e.asString().substring(0, e.asString().indexOf('=')),
                e.asString().substring(e.asString().indexOf('=') + 1)));
        Matcher m = PASSWD.matcher(passwd == null ? "" : passwd);
        return new ImageSpec(tags, config.get("User").asString(), entrypoint, config.get("WorkingDir").asString(), env,
                m.find() ? m.group(3) : null);
    }

    /**
     * @param image  the image
     * @param deploy every document of {@code deploy/*.yaml}
     * @return every way the Job does not fit the image or the other documents, one sentence each; empty when it fits
     */
    static List<String> disagreements(ImageSpec image, List<HasMetadata> deploy) {
        List<String> out = new ArrayList<>();
        List<Job> jobs = deploy.stream().filter(Job.class::isInstance).map(Job.class::cast).toList();
        if (jobs.isEmpty()) {
            out.add("deploy/ holds no Job");
        }
        for (Job job : jobs) {
            PodSpec pod = job.getSpec().getTemplate().getSpec();
            user(image, pod.getSecurityContext(), out);
            if (deploy.stream().noneMatch(d -> d instanceof ServiceAccount && d.getMetadata().getName()
                    .equals(pod.getServiceAccountName()))) {
                out.add("service account " + pod.getServiceAccountName() + " is not defined in deploy/");
            }
            List<Container> containers = new ArrayList<>(pod.getInitContainers());
            containers.addAll(pod.getContainers());
            for (Container c : containers) {
                container(image, deploy, pod, c, out);
            }
        }
        return out;
    }

    private static void user(ImageSpec image, PodSecurityContext sc, List<String> out) {
        if (sc == null || !Boolean.TRUE.equals(sc.getRunAsNonRoot())) {
            out.add("the pod does not require runAsNonRoot");
        }
        if (image.uid() == 0) {
            out.add("the image runs as root");
        }
        if (sc != null && sc.getRunAsUser() != null && sc.getRunAsUser() != image.uid()) {
            out.add("runAsUser " + sc.getRunAsUser() + " is not the image's user " + image.user());
        }
        if (sc != null && sc.getRunAsGroup() != null && sc.getRunAsGroup() != image.gid()) {
            out.add("runAsGroup " + sc.getRunAsGroup() + " is not the image's group " + image.user());
        }
    }

    private static void container(ImageSpec image, List<HasMetadata> deploy, PodSpec pod, Container c, List<String> out) {
        String who = "container " + c.getName();
        if (!image.tags().contains(c.getImage())) {
            out.add(who + " runs image " + c.getImage() + ", but the image is tagged only " + image.tags());
        }
        if ((c.getImage() != null && c.getImage().endsWith(":latest")) || "Always".equals(c.getImagePullPolicy())) {
            out.add(who + " always pulls its image (tag latest or imagePullPolicy Always): a loaded image is never used");
        }
        if (c.getCommand() != null && !c.getCommand().isEmpty() && !c.getCommand().equals(image.entrypoint())) {
            out.add(who + " replaces the entrypoint " + image.entrypoint() + " with " + c.getCommand());
        }
        Map<String, VolumeMount> mounts = new LinkedHashMap<>();
        for (VolumeMount m : c.getVolumeMounts()) {
            mounts.put(m.getMountPath(), m);
            for (String folder : image.runtimeFolders()) {
                if (folder.equals(m.getMountPath()) || folder.startsWith(m.getMountPath() + "/")) {
                    out.add(who + " mounts " + m.getName() + " over " + folder + ", where the image keeps what flowform runs on");
                }
            }
        }
        List<String> args = c.getArgs();
        arg(args, "--dir").ifPresent(dir -> configDir(who, dir, mounts, pod, deploy, args, out));
        arg(args, "--out").ifPresent(file -> writable(who, "--out " + file, file, mounts, pod, out));
        if ("apply".equals(args.get(0)) && !args.get(args.size() - 1).startsWith("-")) {
            String plan = args.get(args.size() - 1);
            if (mountFor(plan, mounts) == null) {
                out.add(who + " applies " + plan + ", which is on no volume another container could have written");
            }
        }
        for (String v : argValues(args, "--var")) {
            for (Matcher m = Pattern.compile("\\$\\(([A-Z_]+)\\)").matcher(v); m.find(); ) {
                String name = m.group(1);
                if (c.getEnv().stream().map(EnvVar::getName).noneMatch(name::equals)) {
                    out.add(who + " passes $(" + name + ") but sets no such variable");
                }
            }
        }
    }

    private static void configDir(String who, String dir, Map<String, VolumeMount> mounts, PodSpec pod,
                                  List<HasMetadata> deploy, List<String> args, List<String> out) {
        VolumeMount m = mounts.get(dir);
        Volume v = m == null ? null : pod.getVolumes().stream().filter(x -> x.getName().equals(m.getName())).findFirst()
                .orElse(null);
        if (v == null || v.getConfigMap() == null) {
            out.add(who + " reads --dir " + dir + ", where no ConfigMap is mounted");
            return;
        }
        ConfigMap cm = deploy.stream().filter(d -> d instanceof ConfigMap && d.getMetadata().getName()
                .equals(v.getConfigMap().getName())).map(ConfigMap.class::cast).findFirst().orElse(null);
        if (cm == null) {
            out.add(who + " mounts ConfigMap " + v.getConfigMap().getName() + ", which deploy/ does not define");
            return;
        }
        if (cm.getData() == null || cm.getData().keySet().stream().noneMatch(k -> k.endsWith(".flow.json"))) {
            out.add("ConfigMap " + cm.getMetadata().getName() + " holds no *.flow.json for --dir " + dir);
            return;
        }
        JsonNode config = JSON.readTree(cm.getData().entrySet().stream().filter(e -> e.getKey().endsWith(".flow.json"))
                .findFirst().orElseThrow().getValue());
        arg(args, "-e").ifPresent(env -> {
            if (!config.path("environment").has(env)) {
                out.add(who + " selects environment " + env + ", which ConfigMap " + cm.getMetadata().getName()
                        + " does not declare");
            }
        });
        for (String assignment : argValues(args, "--var")) {
            String name = assignment.substring(0, assignment.indexOf('='));
            if (!config.path("variable").has(name)) {
                out.add(who + " sets --var " + name + ", which ConfigMap " + cm.getMetadata().getName() + " does not declare");
            }
        }
    }

    private static void writable(String who, String what, String file, Map<String, VolumeMount> mounts, PodSpec pod,
                                 List<String> out) {
        VolumeMount m = mountFor(file, mounts);
        Volume v = m == null ? null : pod.getVolumes().stream().filter(x -> x.getName().equals(m.getName())).findFirst()
                .orElse(null);
        if (v == null || Boolean.TRUE.equals(m.getReadOnly()) || v.getEmptyDir() == null && v.getPersistentVolumeClaim() == null) {
            out.add(who + " writes " + what + " outside a writable volume the next container can read");
        }
    }

    private static VolumeMount mountFor(String file, Map<String, VolumeMount> mounts) {
        return mounts.values().stream().filter(m -> file.startsWith(m.getMountPath() + "/")).findFirst().orElse(null);
    }

    private static Optional<String> arg(List<String> args, String flag) {
        List<String> values = argValues(args, flag);
        return values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    private static List<String> argValues(List<String> args, String flag) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i + 1 < args.size(); i++) {
            if (args.get(i).equals(flag)) {
                out.add(args.get(i + 1));
            }
        }
        return out;
    }

    /** @return {@code /etc/passwd} of one gzipped layer, or null when it has none */
    private static String passwd(java.io.InputStream layer) throws IOException {
        TarArchiveInputStream files = new TarArchiveInputStream(
                new org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream(layer));
        String found = null;
        for (TarArchiveEntry f = files.getNextEntry(); f != null; f = files.getNextEntry()) {
            if (f.getName().replaceFirst("^\\./", "").replaceFirst("^/", "").equals("etc/passwd")) {
                found = new String(files.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
        return found;
    }

    private static Element child(Element parent, String name) {
        Element e = optionalChild(parent, name);
        if (e == null) {
            throw new IllegalStateException("no <" + name + "> in <" + parent.getTagName() + ">");
        }
        return e;
    }

    private static Element optionalChild(Element parent, String name) {
        List<Element> all = children(parent, name);
        return all.isEmpty() ? null : all.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node n = nodes.item(i);
            if (n instanceof Element e && (name == null || e.getTagName().equals(name))) {
                out.add(e);
            }
        }
        return out;
    }
}
