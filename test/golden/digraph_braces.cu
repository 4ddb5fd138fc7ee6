// RUN: %check-golden %s -- --arch 75,80
// '<%' and '%>' are braces (C++'s alternative tokens). A meta body's braces
// are copied whole: copying one byte of each made '<' ... '>', which nvcc
// refused after metacu had exited 0.

__global__ void digraphs(float *p) <%
  @meta for (int j = 0; j < 2; ++j) <%
    p[j] += 1.f;
  %>
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) <%
    p[2] = 1.f;
  %> else <%
    p[3] = 1.f;
  %>
  @meta if (sizeof(int) == 4) <% p[4] = 2.f; %>
  @meta for (int j = 0; j < 2; ++j) <% float x@(j) = j; p[5] += x@(j); %>
%>

// At namespace scope the braces go, whatever their spelling.
@meta for (int j = 0; j < 2; ++j) <%
  __device__ int table@(j) = j;
%>
