/* repo_path.h - a file's path from the root of the repository it is in
 *
 * Code scanning (SARIF's %SRCROOT%) and GitHub's workflow annotations read
 * a path from the root of the checkout, whatever folder the tool ran in:
 * "../x.ddb.yaml" or "/home/ci/work/x.ddb.yaml" lands nowhere. The root is
 * the nearest folder above the file that holds ".git" (a folder, or the
 * file of a worktree or submodule), below any of GIT_CEILING_DIRECTORIES
 * as git reads it; no git is run.
 */
#ifndef DDBC_REPO_PATH_H
#define DDBC_REPO_PATH_H

/* path relative to its repository's root, in a new string the caller
 * frees; NULL when path names no existing file inside a repository. */
char *ddbc_repo_path(const char *path);

#endif
