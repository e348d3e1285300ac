// Reference resolution by javac, for the benchmark: for every identifier in the given sources,
// the declaration javac binds it to. Each group of files (separated by `--`) is compiled on its own.
//   java -Dtruth.root=ROOT --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED JavaTruth.java FILE... [-- FILE...]
// Prints one line per identifier use: "use<TAB>decl", positions as path:line:column (1-based,
// columns in UTF-16 units, paths relative to ROOT); decl is "-" when the declaration is not in
// these sources (the JDK, a library) and the line is left out when javac binds nothing.
import com.sun.source.tree.*;
import com.sun.source.util.*;
import com.sun.tools.javac.tree.JCTree;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import javax.lang.model.element.*;
import javax.tools.*;

public class JavaTruth {
    public static void main(String[] args) throws Exception {
        List<String> group = new ArrayList<>();
        for (String a : args) {
            if (a.equals("--")) {
                if (!group.isEmpty()) run(group);
                group = new ArrayList<>();
            } else group.add(a);
        }
        if (!group.isEmpty()) run(group);
    }

    static void run(List<String> files) throws Exception {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        List<String> options = new ArrayList<>(List.of("-proc:none", "-Xlint:none", "-nowarn"));
        // extra javac options, e.g. `--patch-module java.base=DIR` to resolve the JDK's own sources
        String extra = System.getProperty("truth.options", "").trim();
        if (!extra.isEmpty()) options.addAll(Arrays.asList(extra.split("\\s+")));
        JavacTask task = (JavacTask) compiler.getTask(null, fm, d -> {}, options, null,
            fm.getJavaFileObjectsFromStrings(files));
        List<CompilationUnitTree> units = new ArrayList<>();
        task.parse().forEach(units::add);
        task.analyze();
        Trees trees = Trees.instance(task);
        StringBuilder out = new StringBuilder();
        for (CompilationUnitTree cu : units) {
            new TreePathScanner<Void, Void>() {
                @Override public Void visitIdentifier(IdentifierTree t, Void v) {
                    report(getCurrentPath(), ((JCTree) t).pos);
                    return super.visitIdentifier(t, v);
                }
                @Override public Void visitMemberSelect(MemberSelectTree t, Void v) {
                    report(getCurrentPath(), ((JCTree) t).pos + 1); // pos is the dot
                    return super.visitMemberSelect(t, v);
                }
                @Override public Void visitMemberReference(MemberReferenceTree t, Void v) {
                    String src = source(cu);
                    int at = src.indexOf("::", ((JCTree) t.getQualifierExpression()).getEndPosition(((com.sun.tools.javac.tree.JCTree.JCCompilationUnit) cu).endPositions));
                    if (at >= 0) report(getCurrentPath(), skipSpaces(src, at + 2));
                    return super.visitMemberReference(t, v);
                }
                void report(TreePath path, int usePos) {
                    Element e = trees.getElement(path);
                    if (e == null || e.getKind() == ElementKind.PACKAGE) return;
                    String src = source(cu);
                    if (usePos < 0) return; // a tree javac made up (no position)
                    usePos = skipSpaces(src, usePos);
                    // trees javac adds (super(), enum constants' constructors) are not written in the source
                    String name = e.getKind() == ElementKind.CONSTRUCTOR ? e.getEnclosingElement().getSimpleName().toString() : e.getSimpleName().toString();
                    if (name.isEmpty() || !src.startsWith(name, usePos)) return;
                    String decl = "-";
                    TreePath d = trees.getPath(e);
                    if (d != null && d.getLeaf() instanceof JCTree) {
                        CompilationUnitTree dcu = d.getCompilationUnit();
                        int pos = ((JCTree) d.getLeaf()).pos;
                        if (e.getKind() == ElementKind.CONSTRUCTOR) return; // `new T()` is reported as T
                        // a class's position is its keyword: its name follows
                        if (d.getLeaf() instanceof ClassTree) pos = nameAfter(source(dcu), name, pos);
                        decl = where(dcu, pos);
                    }
                    out.append(where(cu, usePos)).append('\t').append(decl).append('\n');
                }
            }.scan(cu, null);
        }
        System.out.print(out);
    }

    static final Map<CompilationUnitTree, String> sources = new HashMap<>();
    static final Map<CompilationUnitTree, int[]> starts = new HashMap<>();
    static Path rootDir;

    static String source(CompilationUnitTree cu) {
        return sources.computeIfAbsent(cu, c -> {
            try {
                return c.getSourceFile().getCharContent(true).toString();
            } catch (Exception ex) {
                return "";
            }
        });
    }

    static int nameAfter(String src, String name, int from) {
        for (int i = src.indexOf(name, from); i >= 0; i = src.indexOf(name, i + 1)) {
            boolean before = i == 0 || !Character.isJavaIdentifierPart(src.charAt(i - 1));
            boolean after = i + name.length() >= src.length() || !Character.isJavaIdentifierPart(src.charAt(i + name.length()));
            if (before && after) return i;
        }
        return from;
    }

    static int skipSpaces(String src, int pos) {
        while (pos < src.length() && Character.isWhitespace(src.charAt(pos))) pos++;
        return pos;
    }

    static String where(CompilationUnitTree cu, int pos) {
        int[] ls = starts.computeIfAbsent(cu, c -> {
            String s = source(c);
            List<Integer> l = new ArrayList<>();
            l.add(0);
            for (int i = 0; i < s.length(); i++) if (s.charAt(i) == '\n') l.add(i + 1);
            return l.stream().mapToInt(Integer::intValue).toArray();
        });
        int line = Arrays.binarySearch(ls, pos);
        if (line < 0) line = -line - 2;
        Path file = Paths.get(cu.getSourceFile().toUri()).toAbsolutePath().normalize();
        if (rootDir == null) rootDir = Paths.get(System.getProperty("truth.root", ".")).toAbsolutePath().normalize();
        return rootDir.relativize(file).toString().replace('\\', '/') + ":" + (line + 1) + ":" + (pos - ls[line] + 1);
    }
}
